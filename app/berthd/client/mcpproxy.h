#pragma once

#include <QStringList>

namespace berth::McpProxy {

// `berthd mcp`: MCP over standard input and output for desktop AI clients. Each line read is one JSON-RPC message,
// posted to the running instance's /mcp (Streamable HTTP) with the session id and key; each answer is written as
// one line. Diagnostics go to standard error only.
int run(const QStringList &arguments);

} // namespace berth::McpProxy
