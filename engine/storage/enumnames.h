#pragma once

#include <QLatin1String>
#include <QString>
#include <cstddef>
#include <optional>

namespace berth {

// The stored names of an enum's values (in the database or the settings), as one table per enum so that writing
// and reading cannot drift apart.
template<typename Enum>
struct EnumName
{
    Enum value;
    QLatin1String name;
};

template<typename Enum, std::size_t N>
QString nameOf(const EnumName<Enum> (&table)[N], Enum value)
{
    for (const EnumName<Enum> &entry : table) {
        if (entry.value == value)
            return entry.name;
    }
    return {};
}

template<typename Enum, std::size_t N>
std::optional<Enum> valueOf(const EnumName<Enum> (&table)[N], const QString &name)
{
    for (const EnumName<Enum> &entry : table) {
        if (entry.name == name)
            return entry.value;
    }
    return std::nullopt;
}

} // namespace berth
