#include "httpservice.h"

#include "frontdoor.h"
#include "httpserveradapter.h"

namespace berth {

HttpService::HttpService(RequestHandler &handler, HttpConfig config, QObject *parent)
    : QObject(parent)
    , m_adapter(new HttpServerAdapter(this))
    , m_door(new FrontDoor(handler, config, m_adapter))
{
    m_door->setParser(m_adapter);
}

HttpService::~HttpService()
{
    delete m_adapter; // and with it the front door and every connection, before the handler may go
}

bool HttpService::listen(const QHostAddress &address, quint16 port, QString *error)
{
    if (!m_door->listen(address, port)) {
        if (error)
            *error = m_door->errorString();
        return false;
    }
    m_adapter->bind(m_door);
    return true;
}

quint16 HttpService::serverPort() const
{
    return m_door->serverPort();
}

int HttpService::liveConnections() const
{
    return m_door->liveConnections();
}

int HttpService::acceptErrors() const
{
    return m_door->acceptErrors();
}

qint64 HttpService::peakUnsentBytes() const
{
    return m_door->peakUnsentBytes();
}

} // namespace berth
