# Built into both the firmware and the host tools: the serial framing and
# the error names, the NDRange rules (include/hartpool/ndrange_check.h).
common-srcs := common/frame.c common/error.c common/ndrange_check.c
