/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel for lib/buildid.c to build in user space.
 *
 * The headers in include/linux/ reuse the include guards of the kernel's
 * own, so the real ones can never be pulled in; each only includes this
 * file.  The page cache is an array of test-controlled pages.
 */
#ifndef BUILDID_SHIM_H
#define BUILDID_SHIM_H

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/cdefs.h>		/* __always_inline */
#include <linux/types.h>

#define u8	__u8
#define u16	__u16
#define u32	__u32
#define u64	__u64
#define loff_t	__s64
#define pgoff_t	unsigned long

#define PAGE_SHIFT	12
#define PAGE_SIZE	4096UL
#define DIV_ROUND_UP(n, d) ({					\
	typeof(d) __d = (d);					\
	((n) + __d - 1) / __d;					\
})

#define ALIGN(x, a) ({						\
	typeof(x) __mask = (typeof(x))(a) - 1;			\
	((x) + __mask) & ~__mask;				\
})
#define IS_ALIGNED(x, a) ({					\
	typeof(x) __mask = (typeof(x))(a) - 1;			\
	((x) & __mask) == 0;					\
})
#define noinline	__attribute__((__noinline__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define min_t(type, x, y) ({					\
	type __x = (x);						\
	type __y = (y);						\
	__x < __y ? __x : __y;					\
})
#define clamp_t(type, v, lo, hi) ({				\
	type __v = (v);						\
	type __lo = (lo);					\
	type __hi = (hi);					\
	__v < __lo ? __lo : __v > __hi ? __hi : __v;		\
})

/* as the kernel has it for 32-bit and 64-bit longs */
#define MAX_LFS_FILESIZE	(sizeof(long) == 4 ?			\
				 (loff_t)ULONG_MAX << PAGE_SHIFT :	\
				 (loff_t)LLONG_MAX)

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
	void *data;		/* NULL: not in the page cache */
	bool uptodate;
	int refs;		/* test: get/put balance */
};

struct inode;

struct address_space {
	struct inode *host;	/* the page cache's owner, whose size counts */
	struct page *pages;
	unsigned long nr_pages;	/* later pages are not in the page cache */
	/* test: hugetlbfs, indexed by pages of 1 << order PAGE_SIZE pages */
	unsigned int order;
};

/* hugetlbfs: the size of a file's pages */
struct hstate {
	unsigned int order;
};

struct inode {
	loff_t i_size;
	struct hstate *hstate;	/* test: set on hugetlbfs */
};

struct file {
	struct address_space *f_mapping;
	struct inode *f_inode;
};

struct vm_area_struct {
	struct file *vm_file;
};

/* A mapping of a file of @size bytes. */
struct shim_mapping {
	struct address_space	mapping;
	struct inode		inode;
	struct file		file;
	struct vm_area_struct	vma;
};

/*
 * Map a file of @size bytes whose first @nr_pages pages, @pages, are in
 * the page cache; each starts up to date with no data (not cached) until
 * the caller sets it.
 */
static inline struct vm_area_struct *shim_mapping_pages(struct shim_mapping *m,
							struct page *pages,
							unsigned long nr_pages,
							loff_t size)
{
	unsigned long i;

	*m = (struct shim_mapping){ .inode = { .i_size = size } };
	for (i = 0; i < nr_pages; i++)
		pages[i] = (struct page){ .uptodate = true };
	m->mapping.host = &m->inode;
	m->mapping.pages = pages;
	m->mapping.nr_pages = nr_pages;
	m->file.f_mapping = &m->mapping;
	m->file.f_inode = &m->inode;
	m->vma.vm_file = &m->file;
	return &m->vma;
}

/*
 * Map a file of @size bytes held whole in @data, all of it cached: the
 * pages are @data's consecutive PAGE_SIZE blocks, and @data must hold
 * whole pages.  @pages has room for DIV_ROUND_UP(@size, PAGE_SIZE), at
 * least 1.
 */
static inline struct vm_area_struct *shim_mapping(struct shim_mapping *m,
						  struct page *pages,
						  void *data, loff_t size)
{
	unsigned long i, n = size > PAGE_SIZE ? DIV_ROUND_UP(size, PAGE_SIZE) : 1;
	struct vm_area_struct *vma = shim_mapping_pages(m, pages, n, size);

	for (i = 0; i < n; i++)
		pages[i].data = (unsigned char *)data + i * PAGE_SIZE;
	return vma;
}

/* No page reference held: every find_get_page() was put. */
static inline bool shim_refs_dropped(const struct shim_mapping *m)
{
	unsigned long i;

	for (i = 0; i < m->mapping.nr_pages; i++)
		if (m->mapping.pages[i].refs)
			return false;
	return true;
}

/*
 * Make the mapping of @vma a hugetlbfs file of pages of 1 << @order
 * PAGE_SIZE pages: its page cache gives the first of them (the head) for
 * the index of the huge page.
 */
static inline void shim_mapping_huge(struct vm_area_struct *vma,
				     struct hstate *h, unsigned int order)
{
	h->order = order;
	vma->vm_file->f_inode->hstate = h;
	vma->vm_file->f_mapping->order = order;
}

static inline bool is_file_hugepages(struct file *file)
{
	return file->f_inode->hstate;
}

static inline struct hstate *hstate_file(struct file *file)
{
	return file->f_inode->hstate;
}

static inline unsigned int huge_page_order(struct hstate *h)
{
	return h->order;
}

/* the pages of a huge page are consecutive in pages[] */
#define nth_page(page, n)	((page) + (n))

/* Test hook: in_nmi() says this. */
extern bool shim_in_nmi;
#define in_nmi()	shim_in_nmi

extern int shim_kmap_depth;

static inline struct page *find_get_page(struct address_space *mapping,
					 pgoff_t index)
{
	struct page *page;

	if (index >= mapping->nr_pages >> mapping->order ||
	    !mapping->pages[index << mapping->order].data)
		return NULL;
	page = &mapping->pages[index << mapping->order];
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
	assert(shim_kmap_depth == 0);	/* one page mapped at a time */
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
