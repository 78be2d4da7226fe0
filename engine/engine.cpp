#include "engine.h"
namespace berth {
Engine::Engine(EngineSettings, QObject *parent) : QObject(parent) { }
Engine::~Engine() = default;
} // namespace berth
