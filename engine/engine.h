#pragma once
#include "enginesettings.h"
#include <QObject>
namespace berth {
class Engine final : public QObject
{
    Q_OBJECT
public:
    explicit Engine(EngineSettings settings, QObject *parent = nullptr);
    ~Engine() override;
};
} // namespace berth
