#include "site/acceptencoding.h"

#include "site/sitelimits.h"

namespace berth {

namespace {

constexpr int kUnlisted = -1;
constexpr int kFullWeight = 1000; // weights in thousandths: q=0.5 is 500

// The weight of a "q=" value in thousandths, or kUnlisted when it is not a qvalue ("0", "0.5", "1.000").
int weightOf(QByteArrayView value)
{
    if (value.isEmpty() || value.size() > 5 || (value[0] != '0' && value[0] != '1'))
        return kUnlisted;
    int weight = value[0] == '1' ? kFullWeight : 0;
    if (value.size() == 1)
        return weight;
    if (value[1] != '.')
        return kUnlisted;
    int scale = 100;
    for (const char digit : value.sliced(2)) {
        if (digit < '0' || digit > '9')
            return kUnlisted;
        weight += (digit - '0') * scale;
        scale /= 10;
    }
    return weight <= kFullWeight ? weight : kUnlisted;
}

// The weight an item gives its coding: its q parameter, 1 without one; kUnlisted for a malformed q.
int weightOfItem(QByteArrayView parameters)
{
    int weight = kFullWeight;
    while (!parameters.isEmpty()) {
        const qsizetype end = parameters.indexOf(';');
        const QByteArrayView parameter = (end < 0 ? parameters : parameters.first(end)).trimmed();
        parameters = end < 0 ? QByteArrayView() : parameters.sliced(end + 1);
        if (parameter.size() >= 2 && (parameter[0] == 'q' || parameter[0] == 'Q') && parameter[1] == '=')
            weight = weightOf(parameter.sliced(2));
    }
    return weight;
}

// What one pass over the header found: each known coding's weight as listed (first entry wins), "*"'s and
// identity's, and the lowest weight of an accepted item.
struct Weights
{
    std::array<int, kContentCodingCount> codings {kUnlisted, kUnlisted, kUnlisted};
    int any = kUnlisted;
    int identity = kUnlisted;
    int lowestAccepted = kFullWeight;
};

void note(int &slot, int weight)
{
    if (slot == kUnlisted)
        slot = weight;
}

// The weights the header lists, or nothing when it is beyond the bounds.
std::optional<Weights> weightsOf(QByteArrayView header)
{
    if (header.size() > kMaxAcceptEncodingBytes)
        return std::nullopt;
    Weights weights;
    int items = 0;
    while (!header.isEmpty()) {
        const qsizetype end = header.indexOf(',');
        const QByteArrayView item = (end < 0 ? header : header.first(end)).trimmed();
        header = end < 0 ? QByteArrayView() : header.sliced(end + 1);
        if (item.isEmpty())
            continue; // an empty list element, which RFC 9110 says to ignore
        if (++items > kMaxAcceptEncodingItems)
            return std::nullopt;
        const qsizetype semicolon = item.indexOf(';');
        const QByteArrayView coding = (semicolon < 0 ? item : item.first(semicolon)).trimmed();
        const int weight = weightOfItem(semicolon < 0 ? QByteArrayView() : item.sliced(semicolon + 1));
        if (weight == kUnlisted)
            continue; // a malformed weight: the item is ignored
        if (weight > 0 && weight < weights.lowestAccepted)
            weights.lowestAccepted = weight;
        if (coding == "*")
            note(weights.any, weight);
        else if (coding.compare("identity", Qt::CaseInsensitive) == 0)
            note(weights.identity, weight);
        else if (coding.compare("gzip", Qt::CaseInsensitive) == 0 || coding.compare("x-gzip", Qt::CaseInsensitive) == 0)
            note(weights.codings[size_t(ContentCoding::Gzip)], weight);
        else if (coding.compare("br", Qt::CaseInsensitive) == 0)
            note(weights.codings[size_t(ContentCoding::Brotli)], weight);
        else if (coding.compare("zstd", Qt::CaseInsensitive) == 0)
            note(weights.codings[size_t(ContentCoding::Zstd)], weight);
    }
    return weights;
}

} // namespace

EncodingChoice EncodingChoice::negotiate(QByteArrayView acceptEncoding, std::array<bool, kContentCodingCount> offered)
{
    const std::optional<Weights> weights = weightsOf(acceptEncoding);
    if (acceptEncoding.isEmpty() || !weights)
        return {};
    EncodingChoice choice;
    int best = 0;
    for (const ContentCoding coding : kContentCodings) {
        const int listed = weights->codings[size_t(coding)];
        const int weight = listed != kUnlisted ? listed : weights->any;
        if (offered[size_t(coding)] && weight > best) {
            best = weight;
            choice.coding = coding;
        }
    }
    // Identity, unless refused, counts as accepted at the lowest weight listed, and loses ties to any coding.
    const int identity = weights->identity != kUnlisted ? weights->identity
        : weights->any != kUnlisted                     ? weights->any
                                                        : weights->lowestAccepted;
    if (identity > best) {
        choice.coding.reset();
        best = identity;
    }
    choice.acceptable = best > 0;
    return choice;
}

} // namespace berth
