#pragma once

#include <QTableView>

namespace berth {

// A read-only table of records (submissions, counters): whole rows selected, alternating colours,
// columns sized to their content, one line per row.
class DataTableView final : public QTableView
{
    Q_OBJECT

public:
    explicit DataTableView(QWidget *parent = nullptr);
};

} // namespace berth
