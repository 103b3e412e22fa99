# Independent host-side references of the NDRange ids and the sub-group
# collectives: `hartpool run --check` and the tests compare against them.
ref-srcs := ref/ndref.c ref/sgref.c
