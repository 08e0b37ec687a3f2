//===- activetime_collector.cpp - The runtime's collectors ------*- C++ -*-===//
//
// The table of collectors (see activetime_collector.h), and the slow path of
// the probes' poll.
//
//===----------------------------------------------------------------------===//

#include "activetime_collector.h"

#include "activetime_thread.h"

namespace __activetime {

const Collector *const kCollectors[] = {
#define AT_COLLECTOR(Name) &k##Name##Collector,
#include "activetime_collectors.def"
};
const u32 kNumCollectors = sizeof(kCollectors) / sizeof(kCollectors[0]);

// The code samples first: their interrupts are charged to the frames open
// now. The switch source's records, read after the drain, then include a
// switch inside it, which the pending rule gives to the frames open after
// this probe (activetime_switch.h).
void PollSlow(ThreadTls &T, u64 Now) {
  if (!T.TS)
    return;
  PollCodeSamples(T);
  PollSwitchSource(T, Now);
}

} // namespace __activetime
