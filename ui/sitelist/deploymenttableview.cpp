#include "ui/sitelist/deploymenttableview.h"

#include <QDragEnterEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QMimeData>
#include <QPainter>

using namespace Qt::StringLiterals;

namespace berth {

DeploymentTableView::DeploymentTableView(QWidget *parent)
    : QTableView(parent)
{
    setAcceptDrops(true);
    viewport()->setAcceptDrops(true);
    setDragDropMode(QAbstractItemView::DropOnly);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setSortingEnabled(true);
    setAlternatingRowColors(true);
    setShowGrid(false);
    setWordWrap(false);
    setContextMenuPolicy(Qt::CustomContextMenu);
    verticalHeader()->hide();
    horizontalHeader()->setHighlightSections(false);
    horizontalHeader()->setStretchLastSection(true);
}

QStringList DeploymentTableView::localPaths(const QMimeData *mime)
{
    QStringList paths;
    if (!mime || !mime->hasUrls())
        return paths;
    for (const QUrl &url : mime->urls()) {
        if (!url.isLocalFile())
            continue;
        // Only what can be published is accepted, so that a refusal shows while dragging, not after the drop.
        const QFileInfo info(url.toLocalFile());
        const QString suffix = info.suffix().toLower();
        if (!info.isDir() && !(info.isFile() && (suffix == u"html"_s || suffix == u"htm"_s)))
            return {};
        paths.append(url.toLocalFile());
    }
    return paths;
}

void DeploymentTableView::dragEnterEvent(QDragEnterEvent *event)
{
    if (localPaths(event->mimeData()).isEmpty()) {
        event->ignore();
        return;
    }
    m_dragging = true;
    event->setDropAction(Qt::CopyAction);
    event->accept();
    setDropRow(indexAt(event->position().toPoint()).row());
}

void DeploymentTableView::dragMoveEvent(QDragMoveEvent *event)
{
    if (!m_dragging) {
        event->ignore();
        return;
    }
    event->setDropAction(Qt::CopyAction);
    event->accept();
    setDropRow(indexAt(event->position().toPoint()).row());
}

void DeploymentTableView::dragLeaveEvent(QDragLeaveEvent *event)
{
    m_dragging = false;
    setDropRow(-1);
    Q_EMIT dropTargetChanged(-1, false);
    event->accept();
}

void DeploymentTableView::dropEvent(QDropEvent *event)
{
    const QStringList paths = localPaths(event->mimeData());
    const int row = indexAt(event->position().toPoint()).row();
    m_dragging = false;
    setDropRow(-1);
    Q_EMIT dropTargetChanged(-1, false);
    if (paths.isEmpty()) {
        event->ignore();
        return;
    }
    event->setDropAction(Qt::CopyAction);
    event->accept();
    Q_EMIT pathsDropped(paths, row);
}

void DeploymentTableView::setDropRow(int row)
{
    if (row == m_dropRow && m_dragging)
        return;
    m_dropRow = row;
    viewport()->update();
    Q_EMIT dropTargetChanged(row, m_dragging);
}

void DeploymentTableView::paintEvent(QPaintEvent *event)
{
    QTableView::paintEvent(event);
    if (!m_dragging)
        return;
    // Outline what the drop will do: the row it replaces, or the whole table for a new site.
    QRect target = viewport()->rect().adjusted(1, 1, -2, -2);
    if (m_dropRow >= 0 && model()) {
        const QRect first = visualRect(model()->index(m_dropRow, 0));
        target = QRect(QPoint(1, first.top()), QPoint(viewport()->width() - 2, first.bottom()));
    }
    QPainter painter(viewport());
    painter.setRenderHint(QPainter::Antialiasing);
    QPen pen(palette().color(QPalette::Highlight), 2);
    painter.setPen(pen);
    painter.drawRoundedRect(QRectF(target).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
}

} // namespace berth
