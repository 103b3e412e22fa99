/* SPDX-License-Identifier: MIT */
/*
 * Memory a kernel finds without writing it (tests/e2e/test_slices.c,
 * "private"): with plant != 0 every work-item fills its share of a
 * 2,048-word __local array and a 256-word private array with
 * pattern ^ index; with plant == 0 it counts the words of its share and of
 * its own private array that hold the pattern, into hits[2 * global id]
 * (local) and hits[2 * global id + 1] (private). leftover_wg does the same
 * across a barrier (a work-group function: private values live in the
 * group's scratch).
 */
#define LOCAL_WORDS 2048
#define PRIVATE_WORDS 256

__kernel void leftover(__global uint *hits, uint plant, uint pattern)
{
	__local uint l[LOCAL_WORDS];
	/* volatile: an unwritten array is read from memory, not assumed */
	volatile uint p[PRIVATE_WORDS];
	uint lid = get_local_id(0), n = get_local_size(0);
	uint lh = 0, ph = 0;
	for (uint i = lid; i < LOCAL_WORDS; i += n) {
		if (plant)
			l[i] = pattern ^ i;
		else
			lh += l[i] == (pattern ^ i);
	}
	for (uint i = 0; i < PRIVATE_WORDS; i++) {
		if (plant)
			p[i] = pattern ^ i;
		else
			ph += p[i] == (pattern ^ i);
	}
	hits[2 * get_global_id(0)] = lh;
	hits[2 * get_global_id(0) + 1] = ph;
}

__kernel void leftover_wg(__global uint *hits, uint plant, uint pattern)
{
	__local uint l[LOCAL_WORDS];
	volatile uint p[PRIVATE_WORDS];
	uint lid = get_local_id(0), n = get_local_size(0);
	uint lh = 0, ph = 0;
	if (plant) {
		for (uint i = lid; i < LOCAL_WORDS; i += n)
			l[i] = pattern ^ i;
		for (uint i = 0; i < PRIVATE_WORDS; i++)
			p[i] = pattern ^ i;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	if (!plant) {
		for (uint i = lid; i < LOCAL_WORDS; i += n)
			lh += l[i] == (pattern ^ i);
		for (uint i = 0; i < PRIVATE_WORDS; i++)
			ph += p[i] == (pattern ^ i);
	}
	hits[2 * get_global_id(0)] = lh;
	hits[2 * get_global_id(0) + 1] = ph;
}
