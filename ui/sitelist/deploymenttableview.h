#pragma once

#include <QTableView>

namespace berth {

// The deployments table, which also takes dropped folders and .html files: on a row they replace
// that site's content, elsewhere they publish a new site. The row under the pointer is outlined.
class DeploymentTableView final : public QTableView
{
    Q_OBJECT

public:
    explicit DeploymentTableView(QWidget *parent = nullptr);

    // Local paths among the URLs of a drag, or empty when it carries none.
    // The dragged local folders and .html files; empty when anything dragged is neither.
    static QStringList localPaths(const QMimeData *mime);

Q_SIGNALS:
    // targetRow is a row of this view's model, or -1 for "a new site".
    void pathsDropped(const QStringList &paths, int targetRow);
    void dropTargetChanged(int targetRow, bool active);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    void setDropRow(int row);

    int m_dropRow = -1;
    bool m_dragging = false;
};

} // namespace berth
