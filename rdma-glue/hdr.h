/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 on the wire (IBTA vol 1 ch. 9, annex A17): the headers after the
 * UDP header, as Soft-RoCE (drivers/infiniband/sw/rxe/rxe_hdr.h) speaks
 * them.  Only the RC and UD opcodes tonic_rdma implements are named.
 */
#ifndef _TONIC_RDMA_HDR_H
#define _TONIC_RDMA_HDR_H

#include <linux/types.h>

#define TRD_UDP_DPORT		4791
#define TRD_SPORT_BASE		0xc000	/* rxe: 0xc000 + hash_32(qpn, 14) */
#define TRD_ICRC_SIZE		4
#define TRD_PKEY_DEFAULT	0xffff

/* RC opcodes (transport 000). */
enum {
	TRD_OP_SEND_FIRST		= 0x00,
	TRD_OP_SEND_MIDDLE		= 0x01,
	TRD_OP_SEND_LAST		= 0x02,
	TRD_OP_SEND_LAST_IMM		= 0x03,
	TRD_OP_SEND_ONLY		= 0x04,
	TRD_OP_SEND_ONLY_IMM		= 0x05,
	TRD_OP_WRITE_FIRST		= 0x06,
	TRD_OP_WRITE_MIDDLE		= 0x07,
	TRD_OP_WRITE_LAST		= 0x08,
	TRD_OP_WRITE_LAST_IMM		= 0x09,
	TRD_OP_WRITE_ONLY		= 0x0a,
	TRD_OP_WRITE_ONLY_IMM		= 0x0b,
	TRD_OP_READ_REQ			= 0x0c,
	TRD_OP_READ_RESP_FIRST		= 0x0d,
	TRD_OP_READ_RESP_MIDDLE		= 0x0e,
	TRD_OP_READ_RESP_LAST		= 0x0f,
	TRD_OP_READ_RESP_ONLY		= 0x10,
	TRD_OP_ACK			= 0x11,
};

/*
 * Congestion notification packet (RoCEv2, annex A17.9): BTH with the BECN
 * bit, DestQP = the QP whose packets were marked, 16 reserved bytes.
 */
#define TRD_OP_CNP		0x81
#define TRD_CNP_RSVD		16

/* UD opcodes (transport 011): one packet per message, a DETH after the BTH. */
enum {
	TRD_OP_UD_SEND_ONLY		= 0x64,
	TRD_OP_UD_SEND_ONLY_IMM		= 0x65,
};

/* Base transport header, 12 bytes. */
struct trd_bth {
	u8 opcode;
	u8 flags;		/* SE:1 M:1 PadCnt:2 TVer:4 */
	__be16 pkey;
	__be32 qpn;		/* resv8a:8 DestQP:24 */
	__be32 apsn;		/* AckReq:1 resv7:7 PSN:24 */
} __packed;

#define TRD_BTH_SE		0x80
#define TRD_BTH_PAD_SHIFT	4
#define TRD_BTH_PAD_MASK	0x30
#define TRD_BTH_ACKREQ		0x80000000u
#define TRD_PSN_MASK		0x00ffffffu
/* Packets a send queue may have outstanding: a quarter of the PSN space. */
#define TRD_PSN_INFLIGHT_MAX	(1u << 22)
#define TRD_QPN_MASK		0x00ffffffu
#define TRD_BTH_BECN		0x40000000u	/* in the qpn word: resv8a's B bit */

/*
 * IRN (Mittal et al., SIGCOMM'18) between two tonic_rdma peers, in two
 * more bits of resv8a, which the ICRC masks and Soft-RoCE neither checks
 * nor sets:
 *  - IRN_CAP on a request: the requester recovers selectively (its flow's
 *    program is IRN's); on an ACK or NAK: the responder places WRITE
 *    packets out of order.  A requester uses IRN framing only once its
 *    peer answered with IRN_CAP, so toward rxe nothing changes.
 *  - IRN on a request packet: IRN framing.  A WRITE's packets each carry
 *    a RETH (the packet's own address, the rkey, the bytes of the message
 *    from this packet on); opcodes without a RETH of their own carry it
 *    before the payload, and the last packet of a WRITE with immediate
 *    then struct trd_irn_send: the receive WQE it takes (recv_WQE_SN)
 *    and the message's length.  A SEND's packets each carry struct
 *    trd_irn_send before the payload (IRN's recv_WQE_SN, and the offset).
 *    The responder places such a packet at once, in order or not, and
 *    NAKs one out of order with the cumulative ack (the BTH's PSN, as a
 *    NAK sequence error) and the PSN that triggered it (struct
 *    trd_irn_sack after the AETH).  A READ request carries struct
 *    trd_irn_read after its RETH (IRN's read_WQE_SN): one out of order is
 *    kept (and NAKed so) and answered once the PSNs before it arrived,
 *    as READs are executed in order.
 */
#define TRD_BTH_IRN_CAP		0x02000000u
#define TRD_BTH_IRN		0x01000000u

/*
 * ConWeave (seed 004) between two tonic_rdma peers (Documentation/
 * conweave.rst): CW_CAP in resv8a as IRN_CAP (requests say the requester
 * speaks it, ACKs answer); CW: a struct trd_cw follows the BTH (net.c
 * adds it to a packet and strips it from one; nothing else sees it), and
 * resv7 carries opcode, epoch, REROUTED, TAIL.  Control packets (RTT_REPLY,
 * CLEAR, NOTIFY) are opcode TRD_OP_CW, with no payload.
 */
#define TRD_BTH_CW_CAP		0x08000000u
#define TRD_BTH_CW		0x04000000u
#define TRD_CW_OP_SHIFT		28	/* in the apsn word: resv7 */
#define TRD_CW_OP_MASK		0x70000000u
#define TRD_CW_EPOCH_SHIFT	26
#define TRD_CW_EPOCH_MASK	0x0c000000u
#define TRD_CW_REROUTED		0x02000000u
#define TRD_CW_TAIL		0x01000000u
#define TRD_OP_CW		0xc0	/* the manufacturer range */

struct trd_cw {
	u8 path;
	u8 resv;
	__be16 tx_ts;		/* us, the seed's 16 bits */
	__be16 tail_tx_ts;
	__be16 resv2;
} __packed;

/*
 * Before the payload of an IRN-framed SEND packet: the receive WQE it
 * lands in, as the count of receive-consuming messages (SEND, WRITE with
 * immediate) the requester sent on the QP before its message, and the
 * packet's offset in the message.  After the RETH of the last packet of
 * an IRN-framed WRITE with immediate: the receive WQE it takes, and (in
 * off) the message's length, which its completion reports.
 */
struct trd_irn_send {
	__be32 wqe_sn;
	__be32 off;
} __packed;

/*
 * After the RETH of an IRN-framed READ request: which READ of the QP it
 * is, as the count of READs the requester posted before it.
 */
struct trd_irn_read {
	__be32 wqe_sn;
} __packed;

/* After the AETH of an IRN NAK: the PSN whose arrival triggered it. */
struct trd_irn_sack {
	__be32 psn;
} __packed;

/* RDMA extended transport header, 16 bytes (WRITE first/only, READ). */
struct trd_reth {
	__be64 va;
	__be32 rkey;
	__be32 len;
} __packed;

/* ACK extended transport header, 4 bytes: syndrome:8 MSN:24. */
struct trd_aeth {
	__be32 smsn;
} __packed;

#define TRD_AETH_TYPE_MASK	0xe0
#define TRD_AETH_ACK		0x00
#define TRD_AETH_RNR_NAK	0x20
#define TRD_AETH_NAK		0x60
#define TRD_AETH_CREDIT_INVALID	0x1f	/* ACK: no end-to-end credits */
#define TRD_NAK_PSN_SEQ_ERR	0x00	/* syndrome 0x60 */
#define TRD_NAK_INVALID_REQ	0x01
#define TRD_NAK_REM_ACCESS	0x02
#define TRD_NAK_REM_OP		0x03

/* Datagram extended transport header, 8 bytes: Q_Key, resv8:8 SrcQP:24. */
struct trd_deth {
	__be32 qkey;
	__be32 sqpn;
} __packed;

/* Immediate data, 4 bytes. */
struct trd_immdt {
	__be32 imm;
} __packed;

/* PSNs are 24-bit serial numbers. */
static inline int trd_psn_cmp(u32 a, u32 b)
{
	return (s32)((a - b) << 8);
}

static inline u32 trd_psn_add(u32 psn, u32 n)
{
	return (psn + n) & TRD_PSN_MASK;
}

static inline bool trd_op_is_send(u8 op)
{
	return op <= TRD_OP_SEND_ONLY_IMM;
}

static inline bool trd_op_is_write(u8 op)
{
	return op >= TRD_OP_WRITE_FIRST && op <= TRD_OP_WRITE_ONLY_IMM;
}

static inline bool trd_op_has_reth(u8 op)
{
	return op == TRD_OP_WRITE_FIRST || op == TRD_OP_WRITE_ONLY ||
	       op == TRD_OP_WRITE_ONLY_IMM || op == TRD_OP_READ_REQ;
}

static inline bool trd_op_has_imm(u8 op)
{
	return op == TRD_OP_SEND_LAST_IMM || op == TRD_OP_SEND_ONLY_IMM ||
	       op == TRD_OP_WRITE_LAST_IMM || op == TRD_OP_WRITE_ONLY_IMM;
}

/* First packet of a message (starts it). */
static inline bool trd_op_is_first(u8 op)
{
	return op == TRD_OP_SEND_FIRST || op == TRD_OP_SEND_ONLY ||
	       op == TRD_OP_SEND_ONLY_IMM || op == TRD_OP_WRITE_FIRST ||
	       op == TRD_OP_WRITE_ONLY || op == TRD_OP_WRITE_ONLY_IMM;
}

/* Last packet of a message (completes it). */
static inline bool trd_op_is_last(u8 op)
{
	return op == TRD_OP_SEND_LAST || op == TRD_OP_SEND_LAST_IMM ||
	       op == TRD_OP_SEND_ONLY || op == TRD_OP_SEND_ONLY_IMM ||
	       op == TRD_OP_WRITE_LAST || op == TRD_OP_WRITE_LAST_IMM ||
	       op == TRD_OP_WRITE_ONLY || op == TRD_OP_WRITE_ONLY_IMM;
}

static inline bool trd_op_is_read_resp(u8 op)
{
	return op >= TRD_OP_READ_RESP_FIRST && op <= TRD_OP_READ_RESP_ONLY;
}

/* A requester's packet: SEND, WRITE, READ request. */
static inline bool trd_op_is_request(u8 op)
{
	return op <= TRD_OP_READ_REQ;
}

static inline bool trd_op_is_ud(u8 op)
{
	return op == TRD_OP_UD_SEND_ONLY || op == TRD_OP_UD_SEND_ONLY_IMM;
}

/* DETH, and the immediate data of SEND_ONLY_IMM. */
static inline unsigned int trd_ud_ext_len(u8 op)
{
	return sizeof(struct trd_deth) +
	       (op == TRD_OP_UD_SEND_ONLY_IMM ? sizeof(struct trd_immdt) : 0);
}

/* Length of the headers after the BTH for an RC or UD opcode. */
static inline unsigned int trd_op_ext_len(u8 op)
{
	if (trd_op_is_ud(op))
		return trd_ud_ext_len(op);
	if (op == TRD_OP_CNP)
		return TRD_CNP_RSVD;
	if (op == TRD_OP_ACK || op == TRD_OP_READ_RESP_FIRST || op == TRD_OP_READ_RESP_LAST ||
	    op == TRD_OP_READ_RESP_ONLY)
		return sizeof(struct trd_aeth);
	if (op == TRD_OP_READ_RESP_MIDDLE)
		return 0;
	return (trd_op_has_reth(op) ? sizeof(struct trd_reth) : 0) +
	       (trd_op_has_imm(op) ? sizeof(struct trd_immdt) : 0);
}

#endif /* _TONIC_RDMA_HDR_H */
