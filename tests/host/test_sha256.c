// SPDX-License-Identifier: MIT
/*
 * The build cache's SHA-256 (host/clc/sha256.c, sha256.h): FIPS 180-4's
 * test vectors, the padding edges (55, 56 and 64 bytes: one block or two),
 * and a digest fed in pieces of every size equal to the one fed at once.
 */
#include "check.h"
#include "host/clc/sha256.h"
#include <string.h>

static void digest(const void *p, size_t n, char out[65])
{
	clc_sha256 s;
	clc_sha256_init(&s);
	clc_sha256_add(&s, p, n);
	clc_sha256_hex(&s, out);
}

static void vector(const char *in, const char *want)
{
	char h[65];
	digest(in, strlen(in), h);
	CHECK_MSG(!strcmp(h, want), "'%s': %s, want %s", in, h, want);
}

int main(void)
{
	vector("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7"
		   "852b855");
	vector("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff6"
		      "1f20015ad");
	vector("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db0"
	       "6c1");
	/* a million 'a' (the standard's long message) */
	static char a[1000000];
	memset(a, 'a', sizeof(a));
	char h[65], in_pieces[65];
	digest(a, sizeof(a), h);
	CHECK(!strcmp(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e04"
			 "6d39ccc7112cd0"));
	/* 55 bytes end the message in one block, 56 and 64 in two */
	vector("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	       "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734"
	       "318");
	vector("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	       "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6"
	       "738a");
	vector("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	       "aa",
	       "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668"
	       "eb");
	/* pieces of 1..200 bytes give the same digest */
	for (size_t piece = 1; piece <= 200; piece++) {
		clc_sha256 s;
		clc_sha256_init(&s);
		for (size_t at = 0; at < 5000; at += piece)
			clc_sha256_add(&s, a + at,
				       5000 - at < piece ? 5000 - at : piece);
		clc_sha256_hex(&s, in_pieces);
		digest(a, 5000, h);
		CHECK_MSG(!strcmp(h, in_pieces), "pieces of %zu", piece);
	}
	return check_report("test_sha256");
}
