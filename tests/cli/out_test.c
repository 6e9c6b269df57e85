// SPDX-License-Identifier: GPL-2.0
/*
 * out_test: tonic(8)'s output writer (userspace-tools/tonic/out.c) on the
 * host.  MODE is text, json or pretty; it prints a fixed document with
 * UTF-8, control characters and a byte that is not UTF-8 in its strings,
 * and keys as the YNL spec names them in JSON (auto_offload is
 * auto-offload, programs is program), for tests/cli/cli.sh to compare
 * with what it expects.
 */
#include <stdio.h>
#include <string.h>
#include "tonic.h"

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "text";

	json = strcmp(mode, "text") != 0;
	pretty = !strcmp(mode, "pretty");
	out_begin_array();
	out_begin_object();
	out_text("%s: ", "dev0");
	out_str("name", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x9f");
	out_str("esc", "q\"b\\n\nt\t\x01\x7f bad\xff\xc3(");
	out_u64("n", 42);
	out_bool("yes", true);
	out_bool("no", false);
	out_onoff("auto_offload", false);
	out_text("\n    programs ");
	out_key_array(K("programs", "program"));
	out_array_str("reno");
	out_array_str("sack");
	out_end_array();
	out_key_array("empty");
	out_end_array();
	out_end_object();
	out_text("\n");
	out_end_array();
	out_newline();
	out_flush();
	return 0;
}
