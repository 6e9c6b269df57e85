/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PCIe backend of the Tonic device (driver/pci/; main.c has the
 * overview): entry points for the module's init/exit.  The register map is
 * include/uapi/linux/tonic_pci.h.
 */
#ifndef _TONIC_PCI_DRV_H
#define _TONIC_PCI_DRV_H

struct tonic_flow_client;

/*
 * Register the PCI driver; devices present are probed (and registered as
 * Tonic devices) before this returns, so calling it before the soft device
 * is registered makes a bound PCIe device the default.  @client receives
 * the flows' descriptors and notifications.  Returns 0 also when no device
 * is present or the backend is disabled (module parameter backend=soft).
 */
int tonic_pci_init(const struct tonic_flow_client *client);
/* After every socket has left: unbind and unregister the PCIe devices. */
void tonic_pci_exit(void);

#endif /* _TONIC_PCI_DRV_H */
