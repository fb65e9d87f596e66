#pragma once
// SIGINT/SIGTERM handling: the first signal only raises a flag; every wait loop checks it and
// ends its rank with "interrupted by SIG..." so the job stops in order (producers tell their
// trainers why). A second signal terminates at once.
namespace myxtts {

void install_interrupt_handlers();
// 0 when no signal arrived, else the signal number.
int interrupt_signal();
// Throws Error("interrupted by SIGTERM ...") when a signal arrived.
void throw_if_interrupted();

}  // namespace myxtts
