// SPDX-License-Identifier: GPL-2.0
/*
 * The demo's test module: a debugfs file, /sys/kernel/debug/mmap3_demo/spin,
 * to which the workload writes a number of microseconds that the module
 * then spends spinning in mmap3_demo_spin(), so the profile has samples in
 * a (compressed, .ko.xz) module whose symbols perf must resolve on another
 * machine.  Test infrastructure of scripts/demo, not part of the series.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#define MMAP3_DEMO_MAX_USECS	USEC_PER_SEC

static struct dentry *mmap3_demo_dir;
static u64 mmap3_demo_sink;

/* Burn about @usecs microseconds of CPU in this very function. */
static noinline u64 mmap3_demo_spin(unsigned int usecs)
{
	ktime_t end = ktime_add_us(ktime_get(), usecs);
	u64 x = 88172645463325252ULL;
	int i;

	do {
		for (i = 0; i < 1000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
	} while (ktime_before(ktime_get(), end));
	return x;
}

static ssize_t mmap3_demo_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	unsigned int usecs;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &usecs);
	if (ret)
		return ret;
	if (usecs > MMAP3_DEMO_MAX_USECS)
		return -EINVAL;
	WRITE_ONCE(mmap3_demo_sink, mmap3_demo_sink + mmap3_demo_spin(usecs));
	return count;
}

static const struct file_operations mmap3_demo_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= mmap3_demo_write,
	.llseek	= noop_llseek,
};

static int __init mmap3_demo_init(void)
{
	mmap3_demo_dir = debugfs_create_dir("mmap3_demo", NULL);
	debugfs_create_file("spin", 0200, mmap3_demo_dir, NULL,
			    &mmap3_demo_fops);
	return 0;
}

static void __exit mmap3_demo_exit(void)
{
	debugfs_remove_recursive(mmap3_demo_dir);
}

module_init(mmap3_demo_init);
module_exit(mmap3_demo_exit);

MODULE_DESCRIPTION("mmap3 demo: a debugfs file whose writes spin in the module");
MODULE_LICENSE("GPL");
