# tonic(8)'s argument parsing on the host, without the module (TAP in
# $(B)/results/cli.tap): prefix matching, options, -n, usage errors; the
# output writer (UTF-8, escapes, -p, no trailing blanks); tonic-drdma's
# usage errors.
.PHONY: cli
cli: $(B)/user/tonic $(B)/user/out_test $(B)/user/tonic-drdma
	@mkdir -p $(B)/results
	@B=$(B) tests/cli/cli.sh

# The output writer alone, with a fixed document (UTF-8, escapes, -p).
$(B)/user/out_test: tests/cli/out_test.c $(TONIC_CLI_DIR)/out.c $(TONIC_CLI_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(TONIC_CLI_CFLAGS) -I$(TONIC_CLI_DIR) -o $@ tests/cli/out_test.c $(TONIC_CLI_DIR)/out.c

CHECK_SUITES += cli
