// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lnet module: one LNet instance per network namespace, configured
 * through the misc device /dev/lnet with the ioctl ABI of
 * include/uapi/lnet/lnet_ioctl.h (the same bytes lnetd serves on its
 * socket). An open file serves the instance of the namespace it was
 * opened in (a socket's rule), whoever uses it later. This file is only
 * the transport: it frames and copies the request; kernel/core validates
 * and runs it.
 */
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/nsproxy.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include "lnet_module.h"

static unsigned int lnet_net_id;

struct lnet_pernet *lnet_pernet(struct net *net)
{
	struct lnet_pernet *lp = net_generic(net, lnet_net_id);

	/* lp_ln is set last (lnet_net_init): NULL, nothing else is ready */
	return smp_load_acquire(&lp->lp_ln) ? lp : NULL;
}

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
 * Only a command that modifies asks for CAP_NET_ADMIN, in the user
 * namespace that owns the instance's network namespace: show commands
 * need no privilege (and leave no capability check in an audit log).
 */
static bool lnet_dev_may_modify(struct lnet *ln, struct net *net, unsigned int cmd)
{
	return lnet_ioctl_modifies(ln, cmd) && ns_capable(net->user_ns, CAP_NET_ADMIN);
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
	struct net *net = file->private_data;
	struct lnet *ln = lnet_pernet(net)->lp_ln;
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
	rc = lnet_ioctl(ln, cmd, buf, hdr.ioc_len, lnet_dev_may_modify(ln, net, cmd));
	if (copy_to_user(uarg, buf, hdr.ioc_len) && !rc)
		rc = -EFAULT;
out:
	kvfree(buf);
	return rc;
}

/* The opener's namespace, held while the file is open: its instance lives. */
static int lnet_dev_open(struct inode *inode, struct file *file)
{
	file->private_data = get_net(current->nsproxy->net_ns);
	return 0;
}

static int lnet_dev_release(struct inode *inode, struct file *file)
{
	put_net(file->private_data);
	return 0;
}

static const struct file_operations lnet_dev_fops = {
	.owner		= THIS_MODULE,
	.open		= lnet_dev_open,
	.release	= lnet_dev_release,
	.unlocked_ioctl	= lnet_dev_ioctl,
	/* No pointers and fixed-size types in the ABI: same layout in 32-bit. */
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

/*
 * 0644: show commands need no privilege (lnetctl opens read-only for
 * them); each modifying command checks CAP_NET_ADMIN in the user
 * namespace that owns the instance's network namespace.
 */
static struct miscdevice lnet_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "lnet",
	.fops	= &lnet_dev_fops,
	.mode	= 0644,
};

/*
 * @net's instance as lnetd builds its one: the built-in parts (UDSP
 * engine, lolnd) and the socket LND registered right after lnet_init(),
 * before anything can reach it; bound to @net (its interfaces, its
 * sockets).
 */
static int __net_init lnet_net_init(struct net *net)
{
	struct lnet_pernet *lp = net_generic(net, lnet_net_id);
	struct lnet *ln = kvzalloc(sizeof(*ln), GFP_KERNEL);
	int rc;

	if (!ln)
		return -ENOMEM;
	lnet_init(ln);
	ln->ln_netns = os_netns_of(net);
	rc = lnet_builtin_register(ln);
	if (!rc)
		rc = lnet_socklnd_register(ln);
	if (rc) {
		pr_err("cannot register the UDSP engine and the LNDs: %d\n", rc);
		goto err_fini;
	}
	lnet_link_pernet_init(lp);
	smp_store_release(&lp->lp_ln, ln);
	return 0;

err_fini:
	lnet_fini(ln);
	kvfree(ln);
	return rc;
}

/* Objects left by the instances gone so far: what unload reports. */
static atomic64_t lnet_leaked;

/*
 * The namespace is going, its devices gone already: no ioctl can reach the
 * instance (an open /dev/lnet holds the namespace), no link change either.
 * Its connections close with it, traffic flowing or not.
 */
static void __net_exit lnet_net_exit(struct net *net)
{
	struct lnet_pernet *lp = net_generic(net, lnet_net_id);
	struct lnet *ln = lp->lp_ln;

	if (!ln)
		return;
	lnet_link_pernet_exit(lp);
	lnet_fini(ln);
	if (ln->ln_nobjects)
		pr_err("namespace instance gone with %lld objects left (leaked)\n",
		       ln->ln_nobjects);
	atomic64_add(ln->ln_nobjects, &lnet_leaked);
	kvfree(ln);
	lp->lp_ln = NULL;
}

static struct pernet_operations lnet_net_ops = {
	.init	= lnet_net_init,
	.exit	= lnet_net_exit,
	.id	= &lnet_net_id,
	.size	= sizeof(struct lnet_pernet),
};

static int __init lnet_module_init(void)
{
	int rc;

	rc = lnet_module_params_apply();
	if (rc)
		return rc;
	rc = register_pernet_subsys(&lnet_net_ops);
	if (rc) {
		pr_err("cannot make the namespaces' instances: %d\n", rc);
		return rc;
	}
	rc = lnet_link_notifier_start();
	if (rc) {
		pr_err("cannot register the netdevice notifier: %d\n", rc);
		goto err_pernet;
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
err_pernet:
	unregister_pernet_subsys(&lnet_net_ops);
	return rc;
}

static void __exit lnet_module_exit(void)
{
	s64 left;

	/* No ioctl can be running: the device holds a module reference. */
	misc_deregister(&lnet_miscdev);
	/* No link change is queued after this; the instances' exits flush theirs. */
	lnet_link_notifier_stop();
	unregister_pernet_subsys(&lnet_net_ops);
	left = atomic64_read(&lnet_leaked);
	if (left)
		pr_err("unloaded, %lld objects left (leaked)\n", left);
	else
		pr_info("unloaded, 0 objects left\n");
}

module_init(lnet_module_init);
module_exit(lnet_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LNet core with User Defined Selection Policies, configured through /dev/lnet");
