#include "core/small_block_cache.hpp"

namespace gpuarr {

SmallBlockCache::PerStream* SmallBlockCache::find(uintptr_t stream) {
  for (PerStream* s : streams_) {
    if (s->stream == stream) return s;
  }
  return nullptr;
}

void* SmallBlockCache::pop(uintptr_t stream, int cls) {
  std::lock_guard<std::mutex> lock(mutex_);
  PerStream* s = find(stream);
  if (!s) return nullptr;
  auto& list = s->lists[cls];
  if (list.empty()) return nullptr;
  void* p = list.back();
  list.pop_back();
  total_bytes_ -= class_bytes(cls);
  --total_blocks_;
  return p;
}

bool SmallBlockCache::push(uintptr_t stream, int cls, void* ptr) {
  const size_t bytes = class_bytes(cls);
  std::lock_guard<std::mutex> lock(mutex_);
  if (total_bytes_ + bytes > max_total_) return false;
  PerStream* s = find(stream);
  if (!s) {
    s = new PerStream{stream, {}};
    streams_.push_back(s);
  }
  auto& list = s->lists[cls];
  if (list.size() >= max_per_class_) return false;
  if (list.capacity() == 0) list.reserve(max_per_class_ < 16 ? max_per_class_ : 16);
  list.push_back(ptr);
  total_bytes_ += bytes;
  ++total_blocks_;
  return true;
}

std::vector<std::pair<uintptr_t, void*>> SmallBlockCache::take_all() {
  std::vector<std::pair<uintptr_t, void*>> out;
  std::lock_guard<std::mutex> lock(mutex_);
  out.reserve(total_blocks_);
  for (PerStream* s : streams_) {
    for (auto& list : s->lists) {
      for (void* p : list) out.emplace_back(s->stream, p);
    }
    delete s;
  }
  streams_.clear();
  total_bytes_ = 0;
  total_blocks_ = 0;
  return out;
}

std::vector<void*> SmallBlockCache::take_stream(uintptr_t stream) {
  std::vector<void*> out;
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < streams_.size(); ++i) {
    PerStream* s = streams_[i];
    if (s->stream != stream) continue;
    for (int c = 0; c < kNumClasses; ++c) {
      for (void* p : s->lists[c]) out.push_back(p);
      total_bytes_ -= class_bytes(c) * s->lists[c].size();
      total_blocks_ -= s->lists[c].size();
    }
    delete s;
    streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(i));
    break;
  }
  return out;
}

size_t SmallBlockCache::cached_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return total_bytes_;
}

size_t SmallBlockCache::cached_blocks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return total_blocks_;
}

}  // namespace gpuarr
