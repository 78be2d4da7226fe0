// CTest's fixture for the PostgreSQL runs of the HTTP suites: `berth_pgcluster start DIR` makes and starts a private
// cluster in DIR (see PostgresCluster), `berth_pgcluster stop DIR` stops it by its process id.
#include "postgrescluster.h"

#include <QCoreApplication>
#include <QTextStream>

using namespace Qt::StringLiterals;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    QTextStream err(stderr);
    if (arguments.size() != 3 || (arguments.at(1) != u"start"_s && arguments.at(1) != u"stop"_s)) {
        err << "usage: berth_pgcluster start|stop DIR\n";
        return 2;
    }
    const QString folder = arguments.at(2);
    if (arguments.at(1) == u"stop"_s) {
        const QString error = berth::test::PostgresCluster::stopFolder(folder);
        if (!error.isEmpty())
            err << error << '\n';
        return error.isEmpty() ? 0 : 1;
    }
    berth::test::PostgresCluster cluster(folder);
    QString error;
    if (!cluster.start(&error)) {
        err << error << '\n';
        return 1;
    }
    // Left running for the suites; the cleanup fixture stops it. Only the object goes, not the server.
    cluster.release();
    return 0;
}
