package io.sievecrawl.crawler; class Dummy {}
