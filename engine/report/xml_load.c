// SPDX-License-Identifier: MIT
/* libxml2's text writer, loaded on first use (xml_load.h). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "dl.h"
#include "macros.h"
#include "xml_load.h"

/* The soname of the headers' libxml2: 2.14 moved from .2 to .16. */
#if LIBXML_VERSION >= 21400
#define XML_SONAME "libxml2.so.16"
#else
#define XML_SONAME "libxml2.so.2"
#endif

static struct rs_xml xml;
static int loaded;              /* 0 loaded, -ELIBACC failed */
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	static const struct rs_dl_sym syms[] = {
#define SYM(field, name) { name, offsetof(struct rs_xml, field) }
		SYM(SetGenericErrorFunc, "xmlSetGenericErrorFunc"),
		SYM(OutputBufferCreateFile, "xmlOutputBufferCreateFile"),
		SYM(OutputBufferClose, "xmlOutputBufferClose"),
		SYM(NewTextWriter, "xmlNewTextWriter"),
		SYM(FreeTextWriter, "xmlFreeTextWriter"),
		SYM(SetIndent, "xmlTextWriterSetIndent"),
		SYM(SetIndentString, "xmlTextWriterSetIndentString"),
		SYM(StartDocument, "xmlTextWriterStartDocument"),
		SYM(EndDocument, "xmlTextWriterEndDocument"),
		SYM(StartElement, "xmlTextWriterStartElement"),
		SYM(EndElement, "xmlTextWriterEndElement"),
		SYM(WriteElement, "xmlTextWriterWriteElement"),
		SYM(WriteAttribute, "xmlTextWriterWriteAttribute"),
		SYM(WriteFormatAttribute, "xmlTextWriterWriteFormatAttribute"),
		SYM(WriteString, "xmlTextWriterWriteString"),
		SYM(WriteFormatString, "xmlTextWriterWriteFormatString"),
		SYM(Flush, "xmlTextWriterFlush"),
#undef SYM
	};
	/* Never closed (rs_dl_load()): the process writes its JUnit file
	 * once, at the end, and libxml2 keeps global state of its own. */
	loaded = rs_dl_load(XML_SONAME, syms, RS_N(syms), &xml, why,
			    sizeof(why));
}

int rs_xml_load(const struct rs_xml **ret_xml, char *err, size_t errlen)
{
	pthread_once(&once, load);
	if (loaded) {
		snprintf(err, errlen, "%s", why);
		return loaded;
	}
	*ret_xml = &xml;
	return 0;
}
