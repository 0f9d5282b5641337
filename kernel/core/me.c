// SPDX-License-Identifier: GPL-2.0-only
/*
 * Portals and match entries: an incoming PUT or GET names a portal and
 * carries match bits; the first match entry of that portal whose bits,
 * NID and PID fit and whose MD takes the operation receives it.
 */
#include "lnet_priv.h"

void lnet_portals_init(struct lnet *ln)
{
	u32 i;

	for (i = 0; i < LNET_NPORTALS; i++)
		INIT_LIST_HEAD(&ln->ln_dp.dp_portals[i]);
}

void lnet_me_free(struct lnet *ln, struct lnet_me *me)
{
	list_del(&me->me_list);
	if (me->me_md)
		me->me_md->md_me = NULL;
	lnet_obj_free(ln, me);
}

void lnet_portals_fini(struct lnet *ln)
{
	struct lnet_me *me, *tmp;
	u32 i;

	for (i = 0; i < LNET_NPORTALS; i++)
		list_for_each_entry_safe(me, tmp, &ln->ln_dp.dp_portals[i], me_list)
			lnet_me_free(ln, me);
}

/*
 * Does @me take what @hdr carries from peer @src? Its NID, when it names
 * one, stands for that NID's whole peer: a Multi-Rail peer answers from
 * whichever of its NIDs the selection picked, as Lustre matches on the
 * sender's primary NID rather than on the NID that sent.
 */
static bool lnet_me_fits(struct lnet *ln, const struct lnet_me *me,
			 const struct lnet_hdr *hdr, const struct lnet_peer *src,
			 u64 match_bits)
{
	struct lnet_peer_ni *lpni;

	if ((me->me_match_bits ^ match_bits) & ~me->me_ignore_bits)
		return false;
	if (me->me_match_pid != LNET_PID_ANY && me->me_match_pid != hdr->src_pid)
		return false;
	if (lnet_nid_is_zero(&me->me_match_id) ||
	    lnet_nid_equal(&me->me_match_id, &hdr->src_nid))
		return true;
	if (!src)
		return false;
	lpni = lnet_peer_ni_find(ln, &me->me_match_id);
	return lpni && lpni->lpni_peer_net->lpn_peer == src;
}

enum lnet_md_take { LNET_MD_SKIP, LNET_MD_TAKE, LNET_MD_DROP };

/*
 * Can @md take @rlength bytes at the peer's offset @roffset? Fills the
 * length moved and the offset; an operation too long for an MD without
 * TRUNCATE drops the message (it does not fall through to the next ME).
 */
static enum lnet_md_take lnet_md_take(struct lnet_libmd *md, u32 op, u32 rlength,
				      u32 roffset, u32 *mlength, u32 *offset)
{
	u32 off, room;

	if (!lnet_md_usable(md) || !(md->md_options & op))
		return LNET_MD_SKIP;
	off = (md->md_options & LNET_MD_MANAGE_REMOTE) ? roffset : md->md_offset;
	if (off > md->md_length)
		return LNET_MD_DROP;
	room = md->md_length - off;
	if ((md->md_options & LNET_MD_MAX_SIZE) && md->md_max_size < room)
		room = md->md_max_size;
	if (rlength > room && !(md->md_options & LNET_MD_TRUNCATE))
		return LNET_MD_DROP;
	*mlength = rlength < room ? rlength : room;
	*offset = off;
	if (!(md->md_options & LNET_MD_MANAGE_REMOTE)) {
		md->md_offset = off + *mlength;
		/* no room left for another max_size: used up */
		if ((md->md_options & LNET_MD_MAX_SIZE) &&
		    md->md_length - md->md_offset < md->md_max_size)
			md->md_threshold = 1;	/* this operation is its last */
	}
	return LNET_MD_TAKE;
}

struct lnet_libmd *lnet_me_match(struct lnet *ln, const struct lnet_hdr *hdr,
				 const struct lnet_peer *src, u32 op, u32 *mlength,
				 u32 *offset)
{
	u32 portal, rlength, roffset;
	u64 bits;
	struct lnet_me *me;

	if (op == LNET_MD_OP_PUT) {
		portal = hdr->msg.put.ptl_index;
		bits = hdr->msg.put.match_bits;
		rlength = hdr->payload_length;
		roffset = hdr->msg.put.offset;
	} else {
		portal = hdr->msg.get.ptl_index;
		bits = hdr->msg.get.match_bits;
		rlength = hdr->msg.get.sink_length;
		roffset = hdr->msg.get.src_offset;
	}
	if (portal >= LNET_NPORTALS)
		return NULL;
	list_for_each_entry(me, &ln->ln_dp.dp_portals[portal], me_list) {
		enum lnet_md_take t;

		if (!lnet_me_fits(ln, me, hdr, src, bits))
			continue;
		t = lnet_md_take(me->me_md, op, rlength, roffset, mlength, offset);
		if (t == LNET_MD_DROP)
			return NULL;
		if (t == LNET_MD_TAKE)
			return me->me_md;
	}
	return NULL;
}
