#pragma once
// Raw transport bound for the channel benchmark: plain MPI sends of the same sizes in windows
// of non-blocking sends (as osu_bw), no flow control, no assembly.
#include <cstddef>
#include <vector>

namespace myxtts::comm {

// Sender: `count` rounds, each one message of `bytes` to every rank in `peers`, in windows of
// `buffers` outstanding messages per peer using that many distinct buffers on both sides (the
// memory and overlap a channel with that many slots has); returns the seconds until the last
// one was received.
double raw_send_seconds(const std::vector<int>& peers, size_t bytes, int count, int buffers);
// Receiver: the matching messages from `peer` (their size and count come from the sender).
void raw_receive(int peer);

}  // namespace myxtts::comm
