# The YNL spec against the 6.12 schema, and the files generated from it
# (uapi header, kernel policies) against a fresh generation: host only.
.PHONY: ynl ynl-gen
ynl:
	@B=$(B) tests/ynl/check.sh > /dev/null

# Regenerate include/uapi/linux/tonic_nl.h and admin/netlink/tonic-nl-gen.[ch]
# after changing Documentation/netlink/specs/tonic.yaml, and the counters'
# docs in the spec and Documentation/counters.rst after changing a counter
# table (driver/counters.h, tonic-core/counters.h).
ynl-gen:
	@python3 scripts/counters.py
	@B=$(B) scripts/ynl-gen.sh

CHECK_SUITES += ynl
