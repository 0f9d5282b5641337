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
#include "lnet_module.h"

static struct lnet lnet_instance;

/*
 * Read the header and check the framing in the order lnet_ioctl() does
 * (length, version, command), so that both transports give the same errno.
 * ioc_len must cover the structure the command number names and stay
 * within LNET_IOC_MAX_LEN: that bounds the buffer allocated below. Which
 * commands exist, and which of them modify, is kernel/core's business: an
 * unknown command gets ENOTTY from lnet_ioctl(), except one whose number
 * claims more bytes than ioc_len, refused here with EINVAL.
 */
static int lnet_ioc_get_hdr(unsigned int cmd, const void __user *uarg,
			    struct lnet_ioc_hdr *hdr)
{
	if (copy_from_user(hdr, uarg, sizeof(*hdr)))
		return -EFAULT;
	if (hdr->ioc_len < sizeof(*hdr) || hdr->ioc_len > LNET_IOC_MAX_LEN)
		return -EINVAL;
	if (hdr->ioc_version != LNET_IOC_VERSION)
		return -EPROTO;
	if (_IOC_TYPE(cmd) != LNET_IOC_TYPE)
		return -ENOTTY;
	if (_IOC_SIZE(cmd) > hdr->ioc_len)
		return -EINVAL;
	return 0;
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
	void *buf;
	long rc;

	rc = lnet_ioc_get_hdr(cmd, uarg, &hdr);
	if (rc)
		return rc;
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
	/* Show commands ignore may_modify; the others fail with EPERM. */
	rc = lnet_ioctl(&lnet_instance, cmd, buf, hdr.ioc_len,
			capable(CAP_NET_ADMIN));
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

/*
 * The instance as lnetd builds it: the built-in parts (UDSP engine, lolnd)
 * registered right after lnet_init(), before anything can reach it.
 */
static int __init lnet_module_init(void)
{
	int rc;

	lnet_init(&lnet_instance);
	rc = lnet_builtin_register(&lnet_instance);
	if (!rc)
		rc = lnet_socklnd_register(&lnet_instance);
	if (rc) {
		pr_err("cannot register the UDSP engine and the LNDs: %d\n", rc);
		goto err_fini;
	}
	rc = lnet_link_notifier_start(&lnet_instance);
	if (rc) {
		pr_err("cannot register the netdevice notifier: %d\n", rc);
		goto err_fini;
	}
	rc = misc_register(&lnet_miscdev);
	if (rc) {
		pr_err("cannot register /dev/lnet: %d\n", rc);
		goto err_notifier;
	}
	pr_info("loaded, /dev/lnet is misc minor %d\n", lnet_miscdev.minor);
	return 0;

err_notifier:
	lnet_link_notifier_stop();
err_fini:
	lnet_fini(&lnet_instance);
	return rc;
}

static void __exit lnet_module_exit(void)
{
	s64 left;

	/* No ioctl can be running: the device holds a module reference. */
	misc_deregister(&lnet_miscdev);
	/* No link change reaches the instance after this. */
	lnet_link_notifier_stop();
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
