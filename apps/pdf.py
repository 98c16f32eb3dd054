"""The pdf app: read PDF text and convert PDFs to Word documents and images, and images to PDFs.

``read_file`` shows ``Page k:`` followed by that page's text for every page; a PDF without a text
layer (a scan) says so and points at the image + OCR route.
``convert_to_image`` without a page renders every page and stacks them top to bottom in one
image, so one OCR call reads the whole document.
"""

from __future__ import annotations

from officesim.testbed import convert
from officesim.apps._files import new_file, read_existing, reported_as_corrupt
from officesim.apps.registry import App, OfficeContext, OpError, Result

app = App("pdf", "Read PDF files and convert PDFs to Word documents or images, and images to PDFs.")

PDF = (".pdf",)
DOCX = (".docx",)
IMAGE_OUT = (".png", ".jpg", ".jpeg")
IMAGE_IN = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp")


@app.operation
def read_file(ctx: OfficeContext, pdf_file_path: str) -> Result:
    """Read the text of a PDF file, page by page.

    Args:
        pdf_file_path: path of the .pdf file in the office.
    """
    _real, data = read_existing(ctx, pdf_file_path, PDF, "PDF")
    with reported_as_corrupt(pdf_file_path):
        pages = convert.pdf_page_texts(data)
    if not pages:
        return Result(observation=f"{pdf_file_path} has no pages.", data=[])
    text = "\n\n".join(f"Page {n}:\n{t.strip()}" for n, t in enumerate(pages, start=1))
    if not any(t.strip() for t in pages):
        text += ("\n\n(The PDF has no text layer; it is probably a scanned image. "
                 "Convert it to an image and read that with the ocr app.)")
    return Result(observation=text, data=pages)


@app.operation(writes=True)
def convert_to_word(ctx: OfficeContext, pdf_file_path: str, word_file_path: str) -> Result:
    """Convert a PDF to a Word document: each text line becomes a paragraph, each page a new page.

    Args:
        pdf_file_path: path of the .pdf file to convert.
        word_file_path: path of the .docx file to write; an existing file is replaced.
    """
    _src, data = read_existing(ctx, pdf_file_path, PDF, "PDF")
    dst = new_file(ctx, word_file_path, DOCX, "Word")
    with reported_as_corrupt(pdf_file_path):
        ctx.office.write_bytes(dst, convert.pdf_to_docx(data), word_file_path)
    return Result(observation=f"Converted {pdf_file_path} to {word_file_path}.",
                  data={"pdf_file_path": pdf_file_path, "word_file_path": word_file_path})


@app.operation(writes=True)
def convert_to_image(ctx: OfficeContext, pdf_file_path: str, image_file_path: str,
                     page: int | None = None) -> Result:
    """Render a PDF to one PNG or JPEG image: one page, or all pages stacked top to bottom.

    Args:
        pdf_file_path: path of the .pdf file to render.
        image_file_path: path of the .png or .jpg image to write; an existing file is replaced.
        page: the page to render, starting at 1; every page (stacked in one image) when omitted.
    """
    _src, data = read_existing(ctx, pdf_file_path, PDF, "PDF")
    dst = new_file(ctx, image_file_path, IMAGE_OUT, "image")
    with reported_as_corrupt(pdf_file_path):
        count = convert.pdf_page_count(data)
        if page is not None and not 1 <= page <= count:
            raise OpError("out_of_range", f"page {page} does not exist; {pdf_file_path} has {count} page(s)")
        image, width, height, rendered = convert.render_pdf(data, convert.image_format(dst), page)
        ctx.office.write_bytes(dst, image, image_file_path)
    if page is not None:
        what = f"page {page}"
    else:
        what = "the only page" if rendered == 1 else f"all {rendered} pages, stacked top to bottom,"
    return Result(
        observation=f"Rendered {what} of {pdf_file_path} to {image_file_path} ({width}x{height} pixels).",
        data={"image_file_path": image_file_path, "width": width, "height": height, "pages": rendered},
    )


@app.operation(writes=True)
def image_to_pdf(ctx: OfficeContext, image_file_path: str, pdf_file_path: str) -> Result:
    """Put an image (png, jpg, gif, bmp, tiff, webp) into a PDF file, one page per frame.

    Args:
        image_file_path: path of the image file to convert.
        pdf_file_path: path of the .pdf file to write; an existing file is replaced.
    """
    _src, data = read_existing(ctx, image_file_path, IMAGE_IN, "image")
    dst = new_file(ctx, pdf_file_path, PDF, "PDF")
    with reported_as_corrupt(image_file_path):
        document, pages = convert.image_pdf(data)
        ctx.office.write_bytes(dst, document, pdf_file_path)
    return Result(observation=f"Converted {image_file_path} to {pdf_file_path} ({pages} page(s)).",
                  data={"image_file_path": image_file_path, "pdf_file_path": pdf_file_path, "pages": pages})
