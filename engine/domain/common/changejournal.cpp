#include "domain/common/changejournal.h"

namespace berth {

ChangeJournal::ChangeJournal(Database &db)
    : m_db(db)
{
}

} // namespace berth
