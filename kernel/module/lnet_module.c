// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lnet module: one LNet instance, configured through the misc device
 * /dev/lnet with the ioctl ABI of include/uapi/lnet/lnet_ioctl.h (the same
 * bytes lnetd serves on its socket). This file is only the transport: it
 * frames and copies the request; kernel/core validates and runs it.
 */
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/capability.h>
#include <linux/compat.h>
#include "../core/lnet.h"

static struct lnet lnet_instance;

/* The commands of the ABI, and whether they only read. */
static const struct {
	unsigned int cmd;
	bool show;
} lnet_ioc_cmds[] = {
	{ IOC_LIBCFS_CONFIGURE, false },
	{ IOC_LIBCFS_UNCONFIGURE, false },
	{ IOC_LIBCFS_ADD_NET, false },
	{ IOC_LIBCFS_DEL_NET, false },
	{ IOC_LIBCFS_GET_NET, true },
	{ IOC_LIBCFS_ADD_PEER_NI, false },
	{ IOC_LIBCFS_DEL_PEER_NI, false },
	{ IOC_LIBCFS_GET_PEER_NI, true },
	{ IOC_LIBCFS_ADD_UDSP, false },
	{ IOC_LIBCFS_DEL_UDSP, false },
	{ IOC_LIBCFS_GET_UDSP_SIZE, true },
	{ IOC_LIBCFS_GET_UDSP, true },
	{ IOC_LIBCFS_GET_CONST_UDSP_INFO, true },
};

/* 1: a show command, 0: a mutating one, -ENOTTY: not ours. */
static int lnet_ioc_kind(unsigned int cmd)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lnet_ioc_cmds); i++)
		if (lnet_ioc_cmds[i].cmd == cmd)
			return lnet_ioc_cmds[i].show;
	return -ENOTTY;
}

/*
 * Read the header and check the framing in the order lnet_ioctl() does
 * (length, version, command), so that both transports give the same
 * errno. ioc_len must cover the structure the command number names and
 * stay within LNET_IOC_MAX_LEN: that bounds the buffer allocated below.
 * Returns the command's kind (see lnet_ioc_kind()) or -errno.
 */
static int lnet_ioc_get_hdr(unsigned int cmd, const void __user *uarg,
			    struct lnet_ioc_hdr *hdr)
{
	int kind;

	if (copy_from_user(hdr, uarg, sizeof(*hdr)))
		return -EFAULT;
	if (hdr->ioc_len < sizeof(*hdr) || hdr->ioc_len > LNET_IOC_MAX_LEN)
		return -EINVAL;
	if (hdr->ioc_version != LNET_IOC_VERSION)
		return -EPROTO;
	kind = lnet_ioc_kind(cmd);
	if (kind < 0)
		return kind;
	if (_IOC_SIZE(cmd) > hdr->ioc_len)
		return -EINVAL;
	return kind;
}

/*
 * Copy the whole request in, run it, copy the buffer back as the command
 * left it (also on error, as lnetd does: GET_UDSP's ENOSPC carries the
 * size needed). The header is read twice, once for the length and once
 * with the body: the caller may change it in between, so the second copy
 * must say the same or the request is refused.
 */
static long lnet_dev_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	struct lnet_ioc_hdr hdr;
	bool may_modify;
	void *buf;
	int kind;
	long rc;

	kind = lnet_ioc_get_hdr(cmd, uarg, &hdr);
	if (kind < 0)
		return kind;
	buf = kvmalloc(hdr.ioc_len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, uarg, hdr.ioc_len)) {
		rc = -EFAULT;
		goto out;
	}
	if (memcmp(buf, &hdr, sizeof(hdr))) {
		rc = -EINVAL;
		goto out;
	}
	/* capable() is audited: ask only when the command needs the answer. */
	may_modify = !kind && capable(CAP_NET_ADMIN);
	rc = lnet_ioctl(&lnet_instance, cmd, buf, hdr.ioc_len, may_modify);
	if (copy_to_user(uarg, buf, hdr.ioc_len) && !rc)
		rc = -EFAULT;
out:
	kvfree(buf);
	return rc;
}

static const struct file_operations lnet_dev_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= lnet_dev_ioctl,
	/* No pointers and fixed-size types in the ABI: same layout in 32-bit. */
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

/*
 * 0644: show commands need no privilege (lnetctl opens read-only for
 * them); mutating commands check CAP_NET_ADMIN on every ioctl.
 */
static struct miscdevice lnet_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "lnet",
	.fops	= &lnet_dev_fops,
	.mode	= 0644,
};

static int __init lnet_module_init(void)
{
	int rc;

	lnet_init(&lnet_instance);
	rc = misc_register(&lnet_miscdev);
	if (rc) {
		pr_err("cannot register /dev/lnet: %d\n", rc);
		lnet_fini(&lnet_instance);
		return rc;
	}
	pr_info("loaded, /dev/lnet is misc minor %d\n", lnet_miscdev.minor);
	return 0;
}

static void __exit lnet_module_exit(void)
{
	s64 left;

	/* No ioctl can be running: the device holds a module reference. */
	misc_deregister(&lnet_miscdev);
	lnet_fini(&lnet_instance);
	left = lnet_instance.ln_nobjects;
	if (left)
		pr_err("unloaded, %lld objects left (leaked)\n", left);
	else
		pr_info("unloaded, 0 objects left\n");
}

module_init(lnet_module_init);
module_exit(lnet_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LNet core with User Defined Selection Policies, configured through /dev/lnet");
