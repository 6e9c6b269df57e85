# tonic(8)'s argument parsing on the host, without the module (TAP in
# $(B)/results/cli.tap): prefix matching, options, -n, usage errors.
.PHONY: cli
cli: $(B)/user/tonic
	@mkdir -p $(B)/results
	@B=$(B) tests/cli/cli.sh

CHECK_SUITES += cli
