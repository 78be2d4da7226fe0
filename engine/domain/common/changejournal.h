#pragma once

#include "core/error.h"
#include "storage/database.h"
#include "storage/deployment.h"

#include <QString>
#include <functional>

namespace berth {

// What a change of a deployment (or a submission to it) tells others, written in the change's own transaction: the
// change and its record commit together or not at all, so that a process killed at any moment never keeps a change
// whose event is lost. The repository's write joins the transaction the journal opens (see Transaction).
class ChangeJournal final
{
    Q_DISABLE_COPY_MOVE(ChangeJournal)
public:
    struct Change
    {
        QString type; // deployment.created, .updated, .renamed, .deleted or submission.created
        Deployment deployment; // as it is after the change
        QString reason; // deployment.deleted: "deleted" or "expired"
        QString submissionId; // submission.created
    };
    // Records a change inside the open transaction; an error rolls the change back.
    using Writer = std::function<Result<void>(const Change &change)>;

    explicit ChangeJournal(Database &db);
    void setWriter(Writer writer) { m_writer = std::move(writer); }

    // Runs write() (a repository's change) and records `change` in one transaction; write()'s result, or why it or
    // the record failed.
    template<typename Write>
    auto commit(const Change &change, Write write) const -> decltype(write())
    {
        if (!m_writer)
            return write();
        Transaction transaction(m_db.connection());
        if (Result<void> begun = transaction.begun(); !begun)
            return begun.error();
        auto written = write();
        if (!written)
            return written;
        if (Result<void> recorded = m_writer(change); !recorded)
            return recorded.error();
        if (Result<void> committed = transaction.commit(); !committed)
            return committed.error();
        return written;
    }

private:
    Database &m_db;
    Writer m_writer;
};

// journal->commit(change, write), or write() alone when there is no journal (a service used on its own).
template<typename Write>
auto journaled(const ChangeJournal *journal, const ChangeJournal::Change &change, Write write) -> decltype(write())
{
    return journal ? journal->commit(change, std::move(write)) : write();
}

} // namespace berth
