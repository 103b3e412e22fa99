kernel void one(global int *o) { o[get_global_id(0)] = 1; }
