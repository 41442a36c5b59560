package org.jsoup.parser;

/**
 * A tree builder that builds nothing: jsoup's tokenizer alone, the floor of any parse of a page with jsoup. It tells
 * the tokenizer of a start tag's text state (script, style, title...), as the crawler's tree builder does, so that it
 * reads the same tokens; it counts the tokens and drops them. In jsoup's package because a tree builder's hooks are
 * package-private.
 */
public final class TokensOnlyTreeBuilder extends XmlTreeBuilder {
  private long tokens;

  @Override
  XmlTreeBuilder newInstance() {
    return new TokensOnlyTreeBuilder();
  }

  @Override
  protected boolean process(Token token) {
    tokens++;
    if (token.type == Token.TokenType.StartTag) {
      Token.StartTag startTag = token.asStartTag();
      Tag tag = tagFor(startTag.tagName.value(), startTag.normalName, Parser.NamespaceXml, settings);
      TokeniserState textState = tag.textState();
      if (!startTag.isSelfClosing() && !tag.isEmpty() && textState != null) {
        tokeniser.transition(textState);
      }
    }
    return true;
  }

  /** The tokens read since this builder was made. */
  public long tokens() {
    return tokens;
  }
}
