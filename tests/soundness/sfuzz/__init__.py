"""The soundness fuzzer of pasda-jvm: random Java classes, a mutated or rewritten second
version, pasda-jvm's verdict, and a real JVM as the judge (docs/soundness-fuzzer.md)."""
