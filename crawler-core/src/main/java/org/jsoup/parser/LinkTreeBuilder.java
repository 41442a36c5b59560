package org.jsoup.parser;

import org.jsoup.nodes.Attributes;
import org.jsoup.nodes.Element;
import org.jsoup.select.NodeVisitor;

/**
 * jsoup's plain tree builder ({@link XmlTreeBuilder}) trimmed to what the crawler reads from a page: its elements and
 * their attributes, the text of its title and style elements, and all its text only when asked for. Used by
 * {@code io.sievecrawl.crawler.html.HtmlElements}; it lives in jsoup's package because a tree builder's hooks are
 * package-private there.
 *
 * <p>Not built, against {@link XmlTreeBuilder}: comments, doctypes and XML declarations; text nodes outside
 * {@code <title>} and {@code <style>} unless the text is kept; XML namespaces (every element and attribute keeps the
 * name it is written with, as before, but no namespace is looked up for it, and no map of prefixed attributes is made
 * per element). Tag and attribute names are normalized, duplicate attributes dropped, raw-text and void elements
 * handled, and the depth bounded exactly as {@link XmlTreeBuilder} does, so the elements, their nesting and their
 * attributes are the same.
 *
 * <p>With a listener, the listener is told of each element as it opens and as it closes ({@link NodeVisitor#head} and
 * {@link NodeVisitor#tail}, with the document first and last, and each text node kept as it is inserted), in document
 * order, and the elements are no longer attached to their parents unless the text is kept: the crawler reads the links
 * as the tags come, and no tree is built for them. The open elements are still kept (which end tag closes which
 * element is decided as before), and a title or style element still holds its text.
 *
 * <p>One parse at a time, as any tree builder: a {@link Parser} of its own per parse.
 */
public final class LinkTreeBuilder extends XmlTreeBuilder {
  /*
   * Why: the profile of a crawl of the OpenJDK javadoc (crawler-core/README.md, "Where the CPU goes") showed the
   * XML tree builder's namespace work (a HashMap per element with attributes, 7% of the crawl's allocation) and the
   * text nodes (6%), which only --text reads. The tokenizer still makes every token: which text is markup must be
   * decided as before.
   *
   * The namespace scope is still pushed and popped per element (XmlTreeBuilder.pop pops it; a marker on a deque),
   * and never holds a declaration. Each element gets the namespace the XML builder gives an element of an
   * undeclared prefix; HtmlElements configures tags by name in any namespace, and nothing in the crawler reads one.
   *
   * The listener is jsoup's own hook (the one its StreamParser uses): TreeBuilder.push calls head and every pop calls
   * tail, the pruning past the depth limit and the pops at the end of the input included, so each element opens and
   * closes exactly once, and the elements open when an element opens are its ancestors in the tree it would have
   * been in. Without a tree, an element is garbage once it is closed (the profile of issue 38: the tree builder and
   * the walk over the tree were 15% of a crawl's parse, and the child lists a good part of its allocation).
   */
  private final boolean keepText;
  private final boolean keepTree;

  /** @param keepText whether every text node is built (for the page's text), or only those of title and style */
  public LinkTreeBuilder(boolean keepText) {
    this(keepText, null);
  }

  /**
   * @param keepText whether every text node is built (for the page's text), or only those of title and style
   * @param listener told of each element as it opens and closes, or {@code null}; the elements make a tree only if
   *     {@code keepText} or without a listener
   */
  public LinkTreeBuilder(boolean keepText, NodeVisitor listener) {
    this.keepText = keepText;
    this.keepTree = keepText || listener == null;
    this.nodeListener = listener;
  }

  @Override
  XmlTreeBuilder newInstance() {
    return new LinkTreeBuilder(keepText, nodeListener);
  }

  @Override
  protected boolean process(Token token) {
    currentToken = token;
    switch (token.type) {
      case StartTag -> insertStartTag(token.asStartTag());
      case EndTag -> popStackToClose(token.asEndTag());
      case Character -> {
        if (keepText || readsText(currentElOrDoc())) {
          insertCharacterFor(token.asCharacter());
        }
      }
      default -> { } // a comment, doctype, XML declaration or the end: nothing the crawler reads
    }
    return true;
  }

  /** The elements whose text the crawler reads without --text: the page's title, a style sheet's URLs. */
  private static boolean readsText(Element element) {
    String name = element.normalName();
    return name.equals("title") || name.equals("style");
  }

  /** As {@link XmlTreeBuilder#insertElementFor}, without namespaces. */
  private void insertStartTag(Token.StartTag startTag) {
    Attributes attributes = startTag.attributes;
    if (attributes != null) {
      settings.normalizeAttributes(attributes);
      attributes.deduplicate(settings);
      startTag.finaliseAttributeRanges(settings);
    }
    enforceStackDepthLimit();
    namespaceBindings.pushScope();

    Tag tag = tagFor(startTag.tagName.value(), startTag.normalName, Parser.NamespaceXml, settings);
    Element element = new Element(tag, null, attributes);
    if (keepTree) {
      currentElOrDoc().appendChild(element);
    }
    push(element);

    if (startTag.isSelfClosing()) {
      tag.setSeenSelfClose();
      pop();
    } else if (tag.isEmpty()) {
      pop(); // a void element
    } else {
      TokeniserState textState = tag.textState();
      if (textState != null) {
        tokeniser.transition(textState);
      }
    }
  }
}
