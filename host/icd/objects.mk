# libhartpool-icd.so: the OpenCL ICD vendor library over libhartpool.
