#include "instance/listenaddress.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace berth {

bool parseListenAddress(const QString &text, QHostAddress *address, quint16 *port)
{
    // Optional host (IPv4, or IPv6 in brackets), then the port.
    static const QRegularExpression pattern(u"^(?:(\\[[0-9A-Fa-f:.]+\\]|[0-9.]+):)?(\\d{1,5})$"_s);
    const auto match = pattern.match(text.trimmed());
    if (!match.hasMatch())
        return false;
    const uint number = match.captured(2).toUInt();
    if (number > 65535)
        return false;
    QString host = match.captured(1);
    if (host.isEmpty())
        host = u"127.0.0.1"_s;
    else if (host.startsWith(u'['))
        host = host.mid(1, host.size() - 2);
    QHostAddress parsed;
    if (!parsed.setAddress(host))
        return false;
    *address = parsed;
    *port = quint16(number);
    return true;
}

} // namespace berth
