/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every counter tonic_rdma.ko keeps, per RDMA device, listed once: X(ID,
 * name, doc) gives the enum (TRD_CNT_ID), the name `rdma statistic show`
 * prints (ABI for its users: never rename; the DCQCN ones are named as
 * mlx5 names its own), and the sentence Documentation/counters.rst shows
 * (scripts/counters.py writes that page from this table).  Only the
 * preprocessor is needed.  A new counter is one line here.
 */
#ifndef _TRD_COUNTERS_H
#define _TRD_COUNTERS_H

#define TRD_COUNTERS(X)							\
	X(TX_PKTS, tx_packets, "RoCEv2 packets sent.")			\
	X(RX_PKTS, rx_packets, "RoCEv2 packets received with a valid ICRC.") \
	X(RETRANS_PKTS, retrans_packets,				\
	  "Request packets sent again (the flow named a segment again).") \
	X(TIMEOUTS, timeouts,						\
	  "Retransmission timeouts of the QPs' flows, added when a flow is detached.") \
	X(NAK_SEQ_RCVD, nak_seq_rcvd, "NAK sequence errors received.")	\
	X(NAK_SEQ_SENT, nak_seq_sent,					\
	  "NAK sequence errors sent (a request packet out of order).")	\
	X(RNR_NAK_RCVD, rnr_nak_rcvd, "Receiver-not-ready NAKs received.") \
	X(RNR_NAK_SENT, rnr_nak_sent,					\
	  "Receiver-not-ready NAKs sent (a SEND with no receive posted).") \
	X(IRN_OOO_PLACED, irn_ooo_placed,				\
	  "IRN WRITE packets placed out of order (responder).")		\
	X(IRN_NAK_SENT, irn_nak_sent,					\
	  "IRN NAKs sent: the cumulative ack and the PSN of a packet kept out " \
	  "of order.")							\
	X(IRN_NAK_RCVD, irn_nak_rcvd,					\
	  "IRN NAKs received (the requester resends selectively).")	\
	X(IRN_READ_OOO_PLACED, irn_read_ooo_placed,			\
	  "IRN READ response packets placed out of order (requester).")	\
	X(IRN_READ_REQ_KEPT, irn_read_req_kept,				\
	  "IRN READ requests kept out of order (responder), answered once " \
	  "the PSNs before them arrived.")				\
	X(DUP_REQ, duplicate_requests,					\
	  "Duplicate request packets received (acknowledged again, not placed).") \
	X(ICRC_ERR, icrc_errors, "Packets dropped for a bad ICRC.")	\
	X(BAD_PKT, bad_packets,						\
	  "Packets dropped as malformed or not allowed (header, QP state, rkey, " \
	  "range, opcode sequence).")					\
	X(ACKS_SENT, acks_sent, "ACKs sent by the responder.")		\
	X(ACKS_RCVD, acks_rcvd, "ACKs received by the requester.")	\
	X(READ_RESP_SENT, read_resp_sent, "RDMA READ response packets sent.") \
	X(READ_RESP_RCVD, read_resp_rcvd,				\
	  "RDMA READ response packets received and placed in order.")	\
	X(READ_REQ_DROPS, read_req_drops,				\
	  "RDMA READ requests dropped, as if lost: more than the responder " \
	  "answers at once per QP.")					\
	X(FLOWS, tonic_flows,						\
	  "Tonic flows attached now (one per RC QP in RTS): a gauge.")	\
	X(FLOW_DESCS, tonic_flow_descs,					\
	  "Descriptors the flows gave (a packet to send, new or again).") \
	X(FLOW_DESC_DROPS, tonic_flow_desc_drops,			\
	  "Descriptors dropped: the QP's queue was full.")		\
	X(NP_ECN_MARKED, np_ecn_marked_roce_packets,			\
	  "RC packets received with ECN CE (notification point).")	\
	X(NP_CNP_SENT, np_cnp_sent,					\
	  "CNPs sent for them, at most one per QP per 50 us.")		\
	X(RP_CNP_HANDLED, rp_cnp_handled,				\
	  "CNPs given to a QP's flow whose program reacts to them (reaction point).") \
	X(RP_CNP_IGNORED, rp_cnp_ignored,				\
	  "CNPs for a QP whose program does not react, or for no flow.")	\
	X(CW_REROUTES, conweave_reroutes,				\
	  "ConWeave: requests sent as their flow's TAIL, the last on the old " \
	  "path (source).")						\
	X(CW_HELD, conweave_held,					\
	  "ConWeave: REROUTED requests held until their TAIL (destination).") \
	X(CW_RESUMED, conweave_resumed,					\
	  "ConWeave: holds ended by the resume timer, the TAIL lost " \
	  "(destination).")						\
	X(CW_CTL_SENT, conweave_ctl_sent,				\
	  "ConWeave control packets sent: RTT_REPLY, CLEAR, NOTIFY "	\
	  "(destination).")						\
	X(CW_CTL_RCVD, conweave_ctl_rcvd,				\
	  "ConWeave control packets received (source).")		\
	TRD_QP_COUNTERS(X)

/*
 * Per QP, for QPs bound to a counter (rdma statistic qp, counter.c): the
 * link shows their sum over the counters, as the core adds them.  Last in
 * the table: trd_get_hw_stats() leaves them 0 at the device level.
 */
#define TRD_QP_COUNTERS(X)						\
	X(QP_SEGS_SENT, qp_segs_sent,					\
	  "Per QP bound to a counter: packets its flow named, new and again.") \
	X(QP_SEGS_RTX, qp_segs_rtx,					\
	  "Per QP bound to a counter: packets its flow named again.")	\
	X(QP_TIMEOUTS, qp_timeouts,					\
	  "Per QP bound to a counter: its flow's retransmission timeouts.") \
	X(QP_NACKS, qp_nacks_rcvd,					\
	  "Per QP bound to a counter: NACKs its flow took (NAK sequence " \
	  "errors, IRN NAKs, READ response gaps).")			\
	X(QP_CNPS, qp_cnps_handled,					\
	  "Per QP bound to a counter: CNPs its flow took.")		\
	X(QP_IRN_OOO, qp_irn_ooo_placed,				\
	  "Per QP bound to a counter: request packets it placed out of order " \
	  "(IRN responder).")						\
	X(QP_IRN_READ_OOO, qp_irn_read_ooo_placed,			\
	  "Per QP bound to a counter: READ responses it placed out of order " \
	  "(IRN requester).")						\
	X(QP_CNP_SENT, qp_cnp_sent,					\
	  "Per QP bound to a counter: CNPs it sent (notification point).")

#endif /* _TRD_COUNTERS_H */
