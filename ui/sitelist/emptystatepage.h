#pragma once

#include <QWidget>

namespace berth {

// What the dashboard shows before there is any site: an invitation to drop a folder or an .html
// file (the whole page is the drop target, and lights up while one is dragged over it), and buttons
// to choose one instead.
class EmptyStatePage final : public QWidget
{
    Q_OBJECT

public:
    explicit EmptyStatePage(QWidget *parent = nullptr);
    ~EmptyStatePage() override;
    Q_DISABLE_COPY_MOVE(EmptyStatePage)

    void setDropTarget(bool active);
    bool isDropTarget() const { return m_dropTarget; }

Q_SIGNALS:
    void chooseFolder();
    void chooseFile();

private:
    bool m_dropTarget = false;
};

} // namespace berth
