// The source a shared precompiled header is built with (cmake/PrecompiledHeaders.cmake); it has no code of its own.
