/* SPDX-License-Identifier: MIT */
/**
 * @file OpenCL C on hartpool: compile .cl sources into kernel objects and
 * read the OpenCL argument metadata they carry (docs/opencl.md).
 *
 *     hp_cl_build_options o = {.board = "qemu-virt", .options =
 * "-cl-std=CL3.0", .sources = &src, .count = 1}; void *hpk; size_t n; char
 * *log; if (hp_cl_build(&o, &hpk, &n, &log)) { fputs(log, stderr); ... }
 *     hp_object obj;
 *     hp_object_load(dev, hpk, n, &obj, NULL);
 *     hp_cl_program *p;
 *     hp_cl_program_parse(hpk, n, &p);      // kernels, their arguments
 *
 * The argument block of an OpenCL kernel (hp_enqueue_kernel's `args`):
 * argument i at hp_cl_arg.offset, hp_cl_arg.size bytes:
 * - __global / __constant pointers: a uint64_t device address (a buffer
 *   address plus an offset into it; 0 for NULL);
 * - __local pointers: a uint64_t byte offset into the launch's dynamic local
 *   memory (hp_ndrange.local_mem_bytes bytes after the kernel's own
 *   __local variables); the host places each such argument there (the
 *   device adds the work-group's base);
 * - everything else (scalars, vectors, structs) by value, its bytes as the
 *   device lays them out (little-endian; a 3-component vector takes the
 *   size of 4).
 * The block is hp_cl_kmeta.args_size bytes: up to the end of the last
 * argument (a C struct of the same members without its tail padding).
 */
#ifndef HARTPOOL_CL_H
#define HARTPOOL_CL_H

#include <hartpool.h>
#include <stddef.h>
#include <stdint.h>

/** The OpenCL C extensions hp_cl_build enables, which a device reports
 * (kernels/opencl/objects.mk builds the library with the same list): on
 * every board, */
#define HP_CL_EXTENSIONS                                                       \
	"cl_khr_byte_addressable_store", "cl_khr_global_int32_base_atomics",   \
		"cl_khr_global_int32_extended_atomics",                        \
		"cl_khr_local_int32_base_atomics",                             \
		"cl_khr_local_int32_extended_atomics",                         \
		"cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative", \
		"cl_khr_subgroup_clustered_reduce"
/** on RV64 boards (64-bit AMOs), */
#define HP_CL_EXTENSIONS_RV64                                                  \
	"cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"
/** and on boards with the D extension. */
#define HP_CL_EXTENSIONS_FP64 "cl_khr_fp64"

/** Arguments of one OpenCL kernel at most: as many 1-byte arguments as
 * CL_DEVICE_MAX_PARAMETER_SIZE (HP_MBOX_PARAMETER_SIZE bytes) admits; the
 * block's size is checked apart. */
#define HP_CL_ARGS_MAX 1024u
/** __global / __constant pointer arguments of one kernel at most
 * (HPK_BUFFERS_MAX: the device checks each against its buffers). */
#define HP_CL_BUFFER_ARGS_MAX 8u

enum hp_cl_addr_space {
	HP_CL_PRIVATE = 0, /**< a value */
	HP_CL_GLOBAL = 1,
	HP_CL_CONSTANT = 2,
	HP_CL_LOCAL = 3,
};
enum hp_cl_access {
	HP_CL_ACCESS_NONE = 0,
	HP_CL_READ_ONLY,
	HP_CL_WRITE_ONLY,
	HP_CL_READ_WRITE,
};
/* hp_cl_arg.type_qual bits */
#define HP_CL_QUAL_CONST 1u
#define HP_CL_QUAL_RESTRICT 2u
#define HP_CL_QUAL_VOLATILE 4u
#define HP_CL_QUAL_PIPE 8u

typedef struct hp_cl_arg {
	char name[64];
	char type_name[64];  /**< as OpenCL reports it: "float*", "uint4" */
	unsigned addr_space; /**< enum hp_cl_addr_space */
	unsigned access;     /**< enum hp_cl_access */
	unsigned type_qual;  /**< HP_CL_QUAL_* */
	uint32_t offset;     /**< in the argument block */
	uint32_t size;	     /**< bytes (8 for every pointer) */
	uint32_t align;
} hp_cl_arg;

/** Longest OpenCL kernel name: room for the mangled C++ names SYCL and
 * HIP compilers give kernels (the device's own names are shorter:
 * hp_cl_kmeta.device_name). */
#define HP_CL_NAME_MAX 4095u

/** One kernel's OpenCL metadata: its name, its arguments and their block,
 * its attributes. */
typedef struct hp_cl_kmeta {
	char name[HP_CL_NAME_MAX + 1];
	/** The name in the device's kernel table (hp_object_kernel): the
	 * name itself when it has at most 31 bytes, else its first 22 bytes,
	 * '_' and 8 hex digits of a hash of the whole name. */
	char device_name[32];
	unsigned num_args;
	hp_cl_arg args[HP_CL_ARGS_MAX];
	uint32_t args_size;
	uint32_t reqd[3];	 /**< reqd_work_group_size; 0 0 0: none */
	uint32_t hint[3];	 /**< work_group_size_hint; 0 0 0: none */
	uint32_t sub_group_size; /**< intel_reqd_sub_group_size; 0: none */
	uint32_t static_local;	 /**< bytes of its kernel-scope __local */
	unsigned uses_barriers;	 /**< reaches a barrier */
	char attributes[256];	 /**< CL_KERNEL_ATTRIBUTES */
	/** Reaches printf: its launches need a printf buffer (1 for an
	 * object whose metadata does not say). */
	unsigned prints;
} hp_cl_kmeta;

/** Bytes of a program's program-scope variables at most
 * (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE), and how many variables. */
#define HP_CL_GLOBALS_MAX 65536u
#define HP_CL_GLOBALS_VARS_MAX 1024u
/** Addresses among their initial values at most. */
#define HP_CL_GLOBALS_RELS_MAX 1024u

typedef struct hp_cl_program {
	unsigned num_kernels;
	hp_cl_kmeta *kernels;
	char build_options[512]; /**< as given to hp_cl_build */
	/** Program-scope variables: a block of @p globals_size bytes (0:
	 * none) the host allocates on the device before loading, filled
	 * with the image's bytes at @p globals_init, its address written
	 * into the image's word at @p globals_slot (offsets in the image;
	 * hp_cl_globals_prepare); @p globals_nrel words of the block (their
	 * offsets: the image's 32-bit words at @p globals_rel) hold block
	 * offsets, to which the block's address is added. */
	uint32_t globals_size, globals_slot, globals_init;
	uint32_t globals_rel, globals_nrel;
} hp_cl_program;

/** What hp_cl_build makes (hp_cl_build_options.mode). */
enum hp_cl_mode {
	HP_CL_BUILD = 0,   /**< sources or a module to a kernel object */
	HP_CL_COMPILE = 1, /**< sources or a module to a compiled object */
	/** compiled objects and libraries to a kernel object, or (option
	 * -create-library) to a library */
	HP_CL_LINK = 2,
};

/** A compiled object or a library (clCompileProgram's binary, or
 * clLinkProgram's with -create-library): the board's LLVM bitcode after
 * this header. */
#define HP_CL_OBJECT_MAGIC "HPCLOBJ1"
enum hp_cl_object_kind { HP_CL_OBJECT = 1, HP_CL_LIBRARY = 2 };
typedef struct hp_cl_object_header {
	char magic[8];
	uint32_t kind;	  /**< enum hp_cl_object_kind */
	uint32_t bc_size; /**< bytes of bitcode after the header */
	char board[32];	  /**< the board it was compiled for */
} hp_cl_object_header;

/** The kind of the compiled object or library of @p n bytes at @p b
 * (HP_CL_OBJECT, HP_CL_LIBRARY; @p board, 32 bytes, gets its board), or 0
 * if it is none (a kernel object, or something else). */
unsigned hp_cl_object_kind(const void *b, size_t n, char *board);

typedef struct hp_cl_build_options {
	/** Board folder (board/B/board.mk: its ISA and ABI); NULL: qemu-virt.
	 */
	const char *board;
	/** clBuildProgram's options: -D, -I, -cl-std=CL1.2|CL2.0|CL3.0,
	 * -cl-opt-disable, -cl-fast-relaxed-math, -cl-mad-enable, -w,
	 * -Werror, -cl-kernel-arg-info (always on), ...; others are
	 * HP_INVALID_BUILD_OPTIONS. NULL: none. */
	const char *options;
	/** The source strings (lengths[i] 0 or lengths NULL: NUL-ended). */
	const char *const *sources;
	const size_t *lengths;
	unsigned count;
	/** Or a SPIR-V module of @p il_size bytes (clCreateProgramWithIL;
	 * hp_spirv_read checks it, hp_spirv_specialize sets its constants
	 * first): sources are then not read. */
	const void *il;
	size_t il_size;
	/** enum hp_cl_mode (0: HP_CL_BUILD). */
	unsigned mode;
	/** HP_CL_COMPILE, HP_CL_BUILD: headers the sources #include by these
	 * names (clCompileProgram's input_headers; relative, no ".."), the
	 * text of each (lengths as for the sources). */
	const char *const *header_names;
	const char *const *header_sources;
	const size_t *header_lengths;
	unsigned num_headers;
	/** HP_CL_LINK: the compiled objects and libraries, in order; the
	 * options are the link options (-create-library,
	 * -enable-link-options, the math ones). */
	const void *const *objects;
	const size_t *object_sizes;
	unsigned num_objects;
	/** Name of the source in messages (NULL: "program.cl"). */
	const char *source_name;
	/** Keep the linked ELF (symbols, line tables for gdb) here; NULL:
	 * not kept. */
	const char *elf_path;
	/** The device's local memory per work-group
	 * (hp_device_info.local_mem_size): a kernel whose own __local
	 * variables need more fails the build (HP_BUILD_PROGRAM_FAILURE, the
	 * log names the kernel, its bytes and the limit). 0: not checked
	 * (the device refuses such an object when it loads it). */
	uint32_t local_mem_size;
	/** If not NULL: set to whether the object came from the build cache
	 * (a file read, no compiler run: docs/opencl.md, "The build
	 * cache"). */
	bool *from_cache;
} hp_cl_build_options;

/** Compile and link: 0 with the kernel object in @p hpk (malloc'd, @p size
 * bytes; a program without kernels gives an object of its metadata only,
 * which hp_cl_program_parse reads and the device does not load), or
 * HP_BUILD_PROGRAM_FAILURE (compiler errors),
 * HP_INVALID_BUILD_OPTIONS (bad options) or HP_OUT_OF_RESOURCES. @p log (may be
 * NULL) gets the compiler's messages either way (malloc'd, NUL-ended,
 * possibly empty). */
int hp_cl_build(const hp_cl_build_options *o, void **hpk, size_t *size,
		char **log);

/** Highest SPIR-V 1.x minor version a build takes (the translator's,
 * llvm-spirv-15). */
#define HP_SPIRV_MINOR_MAX 4u

/** What a SPIR-V module is checked against. */
typedef struct hp_spirv_device {
	unsigned address_bits; /**< 32 or 64: Physical32 or Physical64 */
	bool fp64;	       /**< Float64 allowed */
	bool atomics64;	       /**< Int64Atomics allowed */
} hp_spirv_device;

/** What hp_spirv_read found. */
typedef struct hp_spirv_info {
	unsigned major, minor; /**< the module's SPIR-V version */
	unsigned address_bits; /**< of its memory model */
	uint32_t lacking;      /**< the capability refused, if one was */
} hp_spirv_info;

/** Check a SPIR-V module (little-endian words): header, version up to
 * 1.HP_SPIRV_MINOR_MAX, every instruction's length, the addressing model
 * against @p dev, no capability the device lacks (images, pipes, device
 * enqueue, half; fp64, 64-bit atomics by board; @p dev NULL: the
 * structure only). 0, HP_INVALID_VALUE (not
 * a module it takes) or HP_BUILD_PROGRAM_FAILURE (a module for another
 * device), with the sentence in @p why. */
int hp_spirv_read(const void *il, size_t size, const hp_spirv_device *dev,
		  hp_spirv_info *out, char *why, size_t n);
/** A module hp_spirv_read accepted, rewritten into the same program in
 * what the translator implements (scalar OpConstantNull, SPIR-V 1.4's
 * OpCopyLogical, OpPtrEqual/NotEqual/Diff, OpDecorateString, a second
 * memory operand of OpCopyMemory: host/clc/spirv_lower.c). 0 with a
 * malloc'd @p out of @p out_size bytes, or HP_OUT_OF_RESOURCES. */
int hp_spirv_lower(const void *il, size_t size, unsigned address_bits,
		   void **out, size_t *out_size);
/** The size in bytes of the specialization constant of SpecId @p spec
 * (bool: 1): 0, or HP_INVALID_SPEC_ID if the module has none. */
int hp_spirv_spec_size(const void *il, size_t size, uint32_t spec,
		       size_t *bytes);
/** Set that constant's value in place (@p bytes of @p value, its size):
 * 0, HP_INVALID_SPEC_ID, or HP_INVALID_VALUE (no value, another size). */
int hp_spirv_specialize(void *il, size_t size, uint32_t spec, const void *value,
			size_t bytes);

/** Parse the OpenCL metadata of a kernel object: HP_INVALID_BINARY if it
 * is not a well-formed object, HP_INVALID_PROGRAM if it was not built
 * from OpenCL C. Free with hp_cl_program_free(). */
int hp_cl_program_parse(const void *hpk, size_t size, hp_cl_program **out);
void hp_cl_program_free(hp_cl_program *p);
/** A program with program-scope variables (p->globals_size): their block
 * allocated on @p d (into @p buf, the caller's to free), filled with the
 * image's initial bytes, and a copy of the @p n bytes of @p hpk that
 * holds its address (@p patched, malloc'd) to load instead. Without
 * variables: 0, *patched NULL. */
int hp_cl_globals_prepare(hp_device *d, const void *hpk, size_t n,
			  const hp_cl_program *p, void **patched,
			  hp_buffer *buf);

/** The clang-19 binary hp_cl_build runs (HP_CLANG overrides), or NULL if
 * there is none (then hp_cl_build fails with HP_COMPILER_NOT_AVAILABLE). */
const char *hp_cl_compiler(void);

#endif
