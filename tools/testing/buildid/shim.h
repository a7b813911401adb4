/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel for lib/buildid.c to build in user space.
 *
 * The headers in include/linux/ reuse the include guards of the kernel's
 * own, so the real ones can never be pulled in; each only includes this
 * file.  The page cache is a single test-controlled page.
 */
#ifndef BUILDID_SHIM_H
#define BUILDID_SHIM_H

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/types.h>

#define u8	__u8
#define u16	__u16
#define u32	__u32
#define u64	__u64
#define loff_t	__s64

#define PAGE_SIZE	4096UL

#define ALIGN(x, a) ({						\
	typeof(x) __mask = (typeof(x))(a) - 1;			\
	((x) + __mask) & ~__mask;				\
})
#define IS_ALIGNED(x, a) ({					\
	typeof(x) __mask = (typeof(x))(a) - 1;			\
	((x) & __mask) == 0;					\
})
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define min_t(type, x, y) ({					\
	type __x = (x);						\
	type __y = (y);						\
	__x < __y ? __x : __y;					\
})

#ifdef SHIM_NO_HOOK
/* benchmarks: READ_ONCE as the kernel has it, a single load */
#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#else
/* Test hook: called after every READ_ONCE, may change the page under it. */
void shim_after_read_once(const void *addr, size_t size);

#define READ_ONCE(x) ({						\
	typeof(x) *__p = &(x);					\
	typeof(x) __v = __atomic_load_n(__p, __ATOMIC_RELAXED);	\
	shim_after_read_once(__p, sizeof(*__p));		\
	__v;							\
})
#endif

struct page {
	void *data;
	bool uptodate;
	int refs;		/* test: get/put balance */
};

struct address_space {
	struct page *page0;	/* NULL: page 0 is not in the page cache */
};

struct inode {
	loff_t i_size;
};

struct file {
	struct address_space *f_mapping;
	struct inode *f_inode;
};

struct vm_area_struct {
	struct file *vm_file;
};

/* A mapping of a file of @size bytes whose page 0, @data, is cached. */
struct shim_mapping {
	struct page		pg;
	struct address_space	mapping;
	struct inode		inode;
	struct file		file;
	struct vm_area_struct	vma;
};

static inline struct vm_area_struct *shim_mapping(struct shim_mapping *m,
						  void *data, loff_t size)
{
	*m = (struct shim_mapping){
		.pg	 = { .data = data, .uptodate = true },
		.inode	 = { .i_size = size },
	};
	m->mapping.page0 = &m->pg;
	m->file.f_mapping = &m->mapping;
	m->file.f_inode = &m->inode;
	m->vma.vm_file = &m->file;
	return &m->vma;
}

extern int shim_kmap_depth;

static inline struct page *find_get_page(struct address_space *mapping,
					 unsigned long index)
{
	struct page *page = index ? NULL : mapping->page0;

	if (page)
		page->refs++;
	return page;
}

static inline int PageUptodate(struct page *page)
{
	return page->uptodate;
}

static inline void put_page(struct page *page)
{
	assert(page->refs > 0);
	page->refs--;
}

static inline void *kmap_atomic(struct page *page)
{
	shim_kmap_depth++;
	return page->data;
}

static inline void kunmap_atomic(void *addr)
{
	assert(shim_kmap_depth > 0);
	shim_kmap_depth--;
}

static inline loff_t i_size_read(const struct inode *inode)
{
	return inode->i_size;
}

static inline struct inode *file_inode(const struct file *file)
{
	return file->f_inode;
}

#endif
