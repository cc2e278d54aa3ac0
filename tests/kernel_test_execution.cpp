// The one file of the kernel tests compiled for each binary: which execution it links.
#include "kernel_tests.hpp"

#ifndef NQ_HOST_EXECUTION
#define NQ_HOST_EXECUTION 0
#endif

namespace nq::test {

extern const bool host_execution = NQ_HOST_EXECUTION != 0;

}  // namespace nq::test
