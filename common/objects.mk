# Built into both the firmware and the host tools: the serial framing and
# the error names.
common-srcs := common/frame.c common/error.c
