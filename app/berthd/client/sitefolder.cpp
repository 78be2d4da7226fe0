#include "app/berthd/client/sitefolder.h"

#include "domain/deploy/digestcache.h"

using namespace Qt::StringLiterals;

namespace berth::SiteFolder {

Result<Content> read(const QString &path, QList<PublishIssue> *issues)
{
    DigestCache cache = DigestCache::load(path);
    Result<FolderContent> folder = FolderReader::readDigests(path, &cache, {}, nullptr, issues);
    if (!folder)
        return folder.error();
    Content content {std::move(folder).value(), {}};
    if (content.folder.singleHtml)
        content.fields.insert(u"html"_s, *content.folder.content.html);
    else
        cache.save(); // a cache that cannot be written costs the next reading time, nothing else
    return content;
}

} // namespace berth::SiteFolder
