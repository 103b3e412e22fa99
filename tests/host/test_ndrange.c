// SPDX-License-Identifier: MIT
/*
 * NDRange validation and the default local size (executor/ndrange.c):
 * every error of executor/ndrange.c (docs/ndrange.md) with the case that must
 * raise it, offsets at the top of a 32- and a 64-bit size_t,
 * reqd_work_group_size as a 3-tuple, uniform-only mode, and the properties the
 * chosen local size must have.
 */
#include "check.h"
#include <executor/exec.h>
#include <string.h>

static void nop(const hp_item *it, const void *a)
{
	(void)it;
	(void)a;
}

static const exec_device dev64 = {
	.harts = 8,
	.address_bits = 64,
	.max_work_group_size = 256,
	.max_work_item_sizes = {256, 256, 64},
	.local_mem_size = 32768,
	.default_sub_group_size = 8,
	.sub_group_sizes = 0x7f,
	.fiber_stack_default = 1024,
	.fiber_arena_size = 256 * 1024,
	.kernel_stack = HP_KERNEL_STACK_USE,
};

static hp_kernel kern(void)
{
	hp_kernel k = {.name = "k", .fn = nop};
	return k;
}

static exec_range r1(uint64_t g)
{
	exec_range r = {.work_dim = 1, .global = {g}};
	return r;
}

/* The detail of the last setup() that failed. */
static char why[112];

static int setup(const exec_device *d, const hp_kernel *k, exec_range r,
		 hp_launch *l)
{
	why[0] = 0;
	int rc = exec_ndrange_setup(d, k, &r, l, why, sizeof(why));
	/* Every error says why; success leaves the text alone. */
	CHECK(rc ? why[0] != 0 : why[0] == 0);
	return rc;
}

/* The detail names these numbers. */
#define CHECK_WHY(...)                                                         \
	do {                                                                   \
		const char *want_[] = {__VA_ARGS__};                           \
		for (unsigned i_ = 0; i_ < sizeof(want_) / sizeof(*want_);     \
		     i_++)                                                     \
			CHECK_MSG(strstr(why, want_[i_]) != NULL,              \
				  "'%s' not in '%s'", want_[i_], why);         \
	} while (0)

static void errors(void)
{
	hp_kernel k = kern();
	hp_launch l;
	exec_range r;
	exec_device dev32 = dev64;
	dev32.address_bits = 32;

	CHECK_EQ(setup(&dev64, NULL, r1(8), &l), HP_INVALID_KERNEL);
	hp_kernel nofn = {.name = "x"};
	CHECK_EQ(setup(&dev64, &nofn, r1(8), &l), HP_INVALID_KERNEL);
	hp_kernel badreqd = kern();
	badreqd.reqd_work_group_size[0] = 8; /* (8,0,0): a zero */
	CHECK_EQ(setup(&dev64, &badreqd, r1(8), &l), HP_INVALID_KERNEL);
	hp_kernel badsg = kern();
	badsg.sub_group_size = 3;
	CHECK_EQ(setup(&dev64, &badsg, r1(8), &l), HP_INVALID_KERNEL);
	badsg.sub_group_size = 128; /* power of two, not supported */
	CHECK_EQ(setup(&dev64, &badsg, r1(8), &l), HP_INVALID_KERNEL);

	for (unsigned w = 0; w < 8; w++) {
		r = r1(8);
		r.work_dim = w;
		CHECK_EQ(setup(&dev64, &k, r, &l),
			 w >= 1 && w <= 3 ? 0 : HP_INVALID_WORK_DIMENSION);
	}

	/* Global sizes beyond the device's size_t, and too many items. */
	CHECK_EQ(setup(&dev32, &k, r1(UINT64_C(1) << 32), &l),
		 HP_INVALID_GLOBAL_WORK_SIZE);
	CHECK_EQ(setup(&dev32, &k, r1(UINT32_MAX), &l), 0);
	r = (exec_range){.work_dim = 2, .global = {1u << 16, 1u << 16}};
	CHECK_EQ(setup(&dev32, &k, r, &l), HP_INVALID_GLOBAL_WORK_SIZE);
	r.global[1] = (1u << 16) - 1;
	CHECK_EQ(setup(&dev32, &k, r, &l), 0);
	/* Dimensions beyond work_dim are ignored, whatever they hold. */
	r = r1(8);
	r.global[1] = r.global[2] = UINT64_MAX;
	r.offset[2] = UINT64_MAX;
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);
	CHECK_EQ(l.global_size[1], 1);
	CHECK_EQ(l.global_offset[2], 0);

	/* Offset + size must stay within size_t: 32- and 64-bit devices. */
	r = r1(16);
	r.offset[0] = UINT32_MAX - 16;
	CHECK_EQ(setup(&dev32, &k, r, &l), 0);
	r.offset[0]++;
	CHECK_EQ(setup(&dev32, &k, r, &l), HP_INVALID_GLOBAL_OFFSET);
	r.offset[0] = UINT64_MAX - 16;
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);
	r.offset[0]++;
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_GLOBAL_OFFSET);
	r = (exec_range){.work_dim = 3, .global = {2, 2, 2}};
	r.offset[2] = UINT64_MAX - 1;
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_GLOBAL_OFFSET);
	r.global[2] = 0; /* empty range: offset check still applies */
	r.offset[2] = UINT64_MAX;
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);

	/* Local sizes. */
	r = (exec_range){.work_dim = 2,
			 .global = {64, 64},
			 .local = {8, 0},
			 .local_given = true};
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	r.local[1] = 512; /* > max work-item size in dim 1 */
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_WORK_ITEM_SIZE);
	r = (exec_range){.work_dim = 3,
			 .global = {64, 64, 128},
			 .local = {1, 1, 65},
			 .local_given = true};
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_WORK_ITEM_SIZE);
	r.local[2] = 64;
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);
	r = (exec_range){.work_dim = 2,
			 .global = {64, 64},
			 .local = {32, 16},
			 .local_given = true};
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	r.local[1] = 8; /* 256: the limit */
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);
	hp_kernel kmax = kern();
	kmax.max_work_group_size = 64;
	CHECK_EQ(setup(&dev64, &kmax, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	r.local[0] = 8;
	CHECK_EQ(setup(&dev64, &kmax, r, &l), 0);

	/* Non-uniform groups are fine unless uniform-only. */
	r = (exec_range){.work_dim = 1,
			 .global = {100},
			 .local = {16},
			 .local_given = true};
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);
	CHECK_EQ(l.num_groups[0], 7);
	r.uniform = true;
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	r.local[0] = 20;
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);

	/* reqd_work_group_size as a 3-tuple, missing dimensions = 1. */
	hp_kernel kreq = kern();
	kreq.reqd_work_group_size[0] = 8;
	kreq.reqd_work_group_size[1] = 1;
	kreq.reqd_work_group_size[2] = 1;
	r = (exec_range){.work_dim = 1,
			 .global = {64},
			 .local = {8},
			 .local_given = true};
	CHECK_EQ(setup(&dev64, &kreq, r, &l), 0);
	r.local[0] = 4;
	CHECK_EQ(setup(&dev64, &kreq, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	r.local_given = false; /* runtime uses reqd as given */
	CHECK_EQ(setup(&dev64, &kreq, r, &l), 0);
	CHECK_EQ(l.local_size[0], 8);
	kreq.reqd_work_group_size[1] = 2; /* (8,2,1) with work_dim 1 */
	CHECK_EQ(setup(&dev64, &kreq, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	r.local_given = true;
	r.local[0] = 8;
	CHECK_EQ(setup(&dev64, &kreq, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	r = (exec_range){.work_dim = 2,
			 .global = {64, 64},
			 .local = {8, 2},
			 .local_given = true};
	CHECK_EQ(setup(&dev64, &kreq, r, &l), 0);
	/* The range's reqd (the --reqd-wg-size flag) overrides the
	 * kernel's. */
	r.reqd[0] = 4, r.reqd[1] = 4, r.reqd[2] = 1;
	CHECK_EQ(setup(&dev64, &kreq, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	r.local[0] = 4, r.local[1] = 4;
	CHECK_EQ(setup(&dev64, &kreq, r, &l), 0);
	r.reqd[2] = 0; /* partial override */
	CHECK_EQ(setup(&dev64, &kreq, r, &l), HP_INVALID_VALUE);
	/* reqd with uniform and a global size it does not divide */
	r = (exec_range){.work_dim = 1, .global = {60}, .uniform = true};
	kreq.reqd_work_group_size[1] = 1;
	CHECK_EQ(setup(&dev64, &kreq, r, &l), HP_INVALID_WORK_GROUP_SIZE);

	/* Sub-group size and team size overrides. */
	r = r1(64);
	r.sub_group_size = 6;
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_VALUE);
	r.sub_group_size = 16;
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);
	CHECK_EQ(l.sub_group_size, 16);
	r.team_size = 9;
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_VALUE);

	/* Resources. */
	hp_kernel klm = kern();
	klm.local_mem_bytes = 32769;
	CHECK_EQ(setup(&dev64, &klm, r1(64), &l), HP_OUT_OF_RESOURCES);
	CHECK_WHY("local memory", "32769", "32768");
	/* An explicit local size above what the kernel's fibers allow is the
	 * work-group size's fault, with both numbers. */
	hp_kernel kstack = kern();
	kstack.uses_barriers = true;
	kstack.stack_bytes = 4096; /* 64 of 4 KiB in the 256 KiB arena */
	r = r1(256);
	r.local[0] = 256;
	r.local_given = true;
	CHECK_EQ(setup(&dev64, &kstack, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	CHECK_WHY("256", "maximum 64", "4096 B stacks", "team");
	r.local[0] = 64;
	CHECK_EQ(setup(&dev64, &kstack, r, &l), 0);
	r.local[0] = 65;
	CHECK_EQ(setup(&dev64, &kstack, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	r.local[0] = 256;
	r.team_size = 4; /* 64 items per hart fit */
	CHECK_EQ(setup(&dev64, &kstack, r, &l), 0);
	/* The device and kernel limits, named. */
	r = r1(1024);
	r.local[0] = 257;
	r.local_given = true;
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_WORK_ITEM_SIZE);
	CHECK_WHY("257", "256");
	r = (exec_range){.work_dim = 2,
			 .global = {64, 64},
			 .local = {32, 16},
			 .local_given = true};
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	CHECK_WHY("512", "maximum 256", "device limit");
	hp_kernel k48 = kern();
	k48.max_work_group_size = 48;
	r.local[0] = 7, r.local[1] = 7;
	CHECK_EQ(setup(&dev64, &k48, r, &l), HP_INVALID_WORK_GROUP_SIZE);
	CHECK_WHY("49", "maximum 48", "max_work_group_size");

	/* Empty ranges are valid no-ops, local sizes still validated. */
	r = (exec_range){.work_dim = 2, .global = {0, 5}};
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);
	CHECK_EQ(l.total_groups, 0);
	CHECK_EQ(exec_ndrange_items(&l), 0);
	r.local_given = true;
	r.local[0] = 0;
	r.local[1] = 1;
	CHECK_EQ(setup(&dev64, &k, r, &l), HP_INVALID_WORK_GROUP_SIZE);
}

/* Each kernel's largest work-group (CL_KERNEL_WORK_GROUP_SIZE). */
static void kernel_max(void)
{
	enum exec_group_limit by;
	hp_kernel k = kern();
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 256);
	CHECK_EQ(by, EXEC_LIMIT_DEVICE);
	k.max_work_group_size = 100;
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 100);
	CHECK_EQ(by, EXEC_LIMIT_KERNEL_MAX);
	k = kern();
	k.reqd_work_group_size[0] = 8, k.reqd_work_group_size[1] = 4;
	k.reqd_work_group_size[2] = 2;
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 64);
	CHECK_EQ(by, EXEC_LIMIT_KERNEL_REQD);
	k = kern();
	k.local_mem_bytes = 32768;
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 256);
	k.local_mem_bytes = 32769;
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 0);
	CHECK_EQ(by, EXEC_LIMIT_LOCAL_MEM);
	/* A kernel without barriers runs on the hart's kernel stack: its
	 * measured need fits, or it cannot run. */
	k = kern();
	k.stack_bytes = HP_KERNEL_STACK_USE;
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 256);
	k.stack_bytes = HP_KERNEL_STACK_USE + 16;
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 0);
	CHECK_EQ(by, EXEC_LIMIT_STACK);
	/* Barrier kernels: fibers of one hart's share of the group. */
	k = kern();
	k.uses_barriers = true;
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 256);
	k.stack_bytes = 2048; /* sg_ops: 128 fit one hart */
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 128);
	CHECK_EQ(by, EXEC_LIMIT_FIBERS);
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 2, &by), 256);
	k.stack_bytes = 1100; /* rounded to 1104: 237 fit */
	CHECK_EQ(exec_fiber_stack_bytes(&dev64, &k), 1104);
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 237);
	/* A work-group function (row_is_group): one hart holds the group,
	 * its items' scratch is stack_bytes each (may be none), and a team
	 * does not add to it. */
	k = kern();
	k.uses_barriers = k.row_is_group = true;
	CHECK_EQ(exec_fiber_stack_bytes(&dev64, &k), 0);
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 256);
	CHECK_EQ(by, EXEC_LIMIT_DEVICE);
	k.stack_bytes = 2048; /* 128 items' scratch fit the arena */
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 128);
	CHECK_EQ(by, EXEC_LIMIT_FIBERS);
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 2, &by), 128);
	k = kern();
	k.uses_barriers = true;
	k.stack_bytes = 1100;
	/* A team holds whole sub-groups per hart: 16 fit one hart, 2
	 * sub-groups of 8, so 48 over 3 harts; no sub-group of 32 fits
	 * whole, so one hart's 16. */
	k.stack_bytes = 16384;
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 1, &by), 16);
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 8, 3, &by), 48);
	CHECK_EQ(exec_kernel_max_group(&dev64, &k, 32, 3, &by), 16);
	/* Each maximum is exact: it launches, one more does not. */
	unsigned stacks[] = {0, 1024, 1100, 2048, 4096, 16384, 65536};
	for (unsigned i = 0; i < 7; i++)
		for (unsigned team = 1; team <= 7; team++) {
			hp_launch l;
			k.stack_bytes = stacks[i];
			uint32_t m = exec_kernel_max_group(&dev64, &k, 8, team,
							   NULL);
			CHECK(m >= 1 && m <= 256);
			exec_range r = {.work_dim = 1,
					.global = {4096},
					.local = {m},
					.local_given = true,
					.team_size = team};
			CHECK_EQ(setup(&dev64, &k, r, &l), 0);
			r.local[0] = m + 1;
			CHECK_EQ(setup(&dev64, &k, r, &l),
				 m + 1 > 256 ? HP_INVALID_WORK_ITEM_SIZE
					     : HP_INVALID_WORK_GROUP_SIZE);
			/* The device's own choice fits too. */
			r.local_given = false;
			for (uint64_t g = 1; g < 100000; g = g * 3 + 1) {
				r.global[0] = g;
				CHECK_EQ(setup(&dev64, &k, r, &l), 0);
				CHECK(l.enqueued_linear <= m);
			}
		}
}

/* The default local size: within every limit, at most the global size,
 * a multiple of the sub-group size where the global size allows, dividing
 * in uniform mode, reqd used as given, and several groups per hart. */
static void chosen(void)
{
	hp_kernel k = kern();
	hp_launch l;
	uint64_t sizes[] = {1,	 3,   7,   8,	 9,    17,    64,
			    100, 255, 256, 1000, 4096, 65537, 1 << 20};
	for (unsigned dim = 1; dim <= 3; dim++)
		for (unsigned a = 0; a < 14; a++)
			for (unsigned b = 0; b < 14; b += 3)
				for (unsigned u = 0; u < 2; u++) {
					exec_range r = {.work_dim = dim,
							.uniform = u};
					r.global[0] = sizes[a];
					r.global[1] = sizes[b];
					r.global[2] = sizes[(a + b) % 9];
					CHECK_EQ(setup(&dev64, &k, r, &l), 0);
					uint64_t lin = 1;
					for (unsigned d = 0; d < 3; d++) {
						uint64_t g = l.global_size[d];
						uint64_t e = l.local_size[d];
						CHECK(e >= 1 && e <= g);
						CHECK(e <=
						      dev64.max_work_item_sizes
							      [d]);
						if (u)
							CHECK_EQ(g % e, 0);
						lin *= e;
					}
					CHECK(lin <= 256);
					uint64_t items = exec_ndrange_items(&l);
					/* Enough items: every hart gets
					 * several groups, groups are whole
					 * sub-groups. */
					if (!u && items >= 4 * 8 * 8 &&
					    l.global_size[0] >= 8) {
						CHECK(l.total_groups >= 4 * 8);
						CHECK_EQ(l.local_size[0] % 8,
							 0);
					}
				}
	/* Kernel limit respected. */
	hp_kernel km = kern();
	km.max_work_group_size = 48;
	exec_range r = {.work_dim = 2, .global = {1 << 12, 1 << 12}};
	CHECK_EQ(setup(&dev64, &km, r, &l), 0);
	CHECK(l.enqueued_linear <= 48);
	CHECK_EQ(l.local_size[0] % 8, 0);
	/* Sub-group bookkeeping. */
	r = (exec_range){.work_dim = 1,
			 .global = {100},
			 .local = {12},
			 .local_given = 1};
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);
	CHECK_EQ(l.enqueued_num_sub_groups, 2);
	CHECK_EQ(l.max_sub_group_size, 8);
	r.local[0] = 5;
	CHECK_EQ(setup(&dev64, &k, r, &l), 0);
	CHECK_EQ(l.max_sub_group_size, 5);
}

int main(void)
{
	errors();
	kernel_max();
	chosen();
	return check_report("test_ndrange");
}
