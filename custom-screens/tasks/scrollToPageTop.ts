/**
 * Scrolls every scrolled ancestor of `element` back to its top. The shell scrolls its `main`, not
 * the window, and a chart may nest another scroller: whichever one holds the page, its offset from
 * a long form would otherwise stay put when the page under it becomes short, and show empty space.
 */
export function scrollToPageTop(element: HTMLElement): void {
  for (let node = element.parentElement; node; node = node.parentElement) {
    if (node.scrollTop > 0) node.scrollTop = 0;
  }
}
