#pragma once

namespace berth {

// Every connection is a file descriptor: lifts the soft open-file limit to the hard one, so that the
// front door's connection cap, not the process limit, is what bounds a busy server. For the front
// ends to call once at start; returns the soft limit now in force (0 when it cannot be read).
long raiseOpenFileLimit();

// Hands the heap's free pages back to the system (glibc keeps what a burst of allocations freed, in every thread's
// arena). For after a start's one-off reads of every deployment and every blob's name, so that the idle process
// keeps only what it uses. Does nothing on other C libraries.
void releaseFreedMemory();

// Buffers of a megabyte and more (deploy bodies, archive files, blobs being stored) mapped each on their own and
// returned to the system when freed. glibc otherwise raises that threshold to the largest buffer freed so far, and
// later buffers of that size come from the heap, where what they leave behind stays resident: a 60 MB archive upload
// grew the process by about 25 MB, but by 37 to 50 MB in a run out of ten. Process-wide, so that the engine's bounds
// hold for whichever front end runs it; does nothing on other C libraries.
void mapLargeBuffersApart();

} // namespace berth
