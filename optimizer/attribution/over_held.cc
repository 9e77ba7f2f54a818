#include "optimizer/attribution/over_held.h"

#include <algorithm>

namespace fleetcap::attribution {

std::vector<OverHeldSpan> FindOverHeld(std::vector<HeldInterval> holds) {
  struct Event {
    int64_t at;
    size_t hold;  // index into `holds`
    bool start;
  };
  std::vector<Event> events;
  events.reserve(holds.size() * 2);
  for (size_t i = 0; i < holds.size(); ++i) {
    if (holds[i].from >= holds[i].to) continue;
    events.push_back({holds[i].from, i, true});
    events.push_back({holds[i].to, i, false});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.at < b.at; });
  std::vector<OverHeldSpan> out;
  std::vector<size_t> active;
  int64_t held = 0;
  for (size_t e = 0; e < events.size();) {
    const int64_t at = events[e].at;
    for (; e < events.size() && events[e].at == at; ++e) {
      const size_t h = events[e].hold;
      if (events[e].start) {
        active.push_back(h);
        held += holds[h].milli;
      } else {
        active.erase(std::find(active.begin(), active.end(), h));
        held -= holds[h].milli;
      }
    }
    if (held <= 1000 || e == events.size()) continue;
    OverHeldSpan span{at, events[e].at, held, {}};
    for (size_t h : active) span.holds.push_back(holds[h].hold);
    std::sort(span.holds.begin(), span.holds.end());
    if (!out.empty() && out.back().to == span.from && out.back().holds == span.holds) {
      out.back().to = span.to;
    } else {
      out.push_back(std::move(span));
    }
  }
  return out;
}

}  // namespace fleetcap::attribution
