// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Setting the health of local NIs and peer NIs by hand (net set --health,
 * peer set --health), to see how selection and recovery pings behave, and
 * a peer's state bits (peer set --state), to see how discovery does.
 */
#include <errno.h>
#include <string.h>

#include "ops_priv.h"

static const char *health_what(uint32_t kind)
{
	return kind == LNET_HEALTH_PEER_NI ? "peer NI" : "local NI";
}

int cfg_health_set(struct cfg_handle *h, uint32_t kind, const struct lnet_nid *nid,
		   uint32_t value, struct cfg_err *err)
{
	struct lnet_ioc_health hl = { .hl_hdr.ioc_len = sizeof(hl), .hl_kind = kind,
				      .hl_value = value };
	char doing[64 + LNET_NID_STR_MAX], buf[LNET_NID_STR_MAX];
	int rc;

	if (kind != LNET_HEALTH_LOCAL_NI && kind != LNET_HEALTH_PEER_NI)
		return cfg_fail(err, -EINVAL, NULL, "invalid health kind %u", kind);
	if (value > LNET_HEALTH_MAX)
		return cfg_fail(err, -EINVAL, NULL, "invalid health '%u': expected an integer 0-%u",
				value, LNET_HEALTH_MAX);
	if (nid) {
		hl.hl_nid = *nid;
		cfg_nid_str(nid, buf, sizeof(buf));
		snprintf(doing, sizeof(doing), "cannot set the health of %s %s",
			 health_what(kind), buf);
	} else {
		hl.hl_flags = LNET_HEALTH_F_ALL;
		snprintf(doing, sizeof(doing), "cannot set the health of every %s",
			 health_what(kind));
	}
	rc = cfg_ioctl(h, IOC_LIBCFS_SET_HEALTH, &hl);
	if (rc == -ENOENT && nid && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL, "%s: %s", doing, kind == LNET_HEALTH_PEER_NI ?
				"no peer has this NID" : "not a NID of this node (0@lo included)");
	return rc ? cfg_ioc_fail(h, rc, err, NULL, doing) : 0;
}

int cfg_peer_state_set(struct cfg_handle *h, const struct lnet_nid *nid, uint32_t state,
		       struct cfg_err *err)
{
	struct lnet_ioc_peer pr = { .pr_hdr.ioc_len = sizeof(pr), .pr_prim_nid = *nid,
				    .pr_peer_state = state };
	char doing[64 + LNET_NID_STR_MAX], buf[LNET_NID_STR_MAX];
	int rc;

	cfg_nid_str(nid, buf, sizeof(buf));
	if (state & ~LNET_PEER_STATE_SETTABLE)
		return cfg_fail(err, -EINVAL, NULL,
				"invalid --state '%u': bits %#x are not state bits a peer keeps "
				"(settable: %#x)", state, state & ~LNET_PEER_STATE_SETTABLE,
				LNET_PEER_STATE_SETTABLE);
	snprintf(doing, sizeof(doing), "cannot set the state of peer %s", buf);
	rc = cfg_ioctl(h, IOC_LIBCFS_SET_PEER_STATE, &pr);
	if (rc == -ENOENT && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL, "%s: no peer has this NID", doing);
	return rc ? cfg_ioc_fail(h, rc, err, NULL, doing) : 0;
}
