import { describe, expect, it } from "vitest";
import { repositoryUrl } from "../../src/claude-cloud/cloud-settings";

describe("claude-cloud: which URL a session's repo is cloned from", () => {
  it("puts owner/name under the base URL, GitHub's by default", () => {
    expect(repositoryUrl("example-org/sample-repo")).toBe("https://github.com/example-org/sample-repo");
    expect(repositoryUrl("example-org/sample-repo", "file:///srv/git")).toBe(
      "file:///srv/git/example-org/sample-repo",
    );
    expect(repositoryUrl("a/b", "git@github.com:")).toBe("git@github.com:a/b");
  });

  it("takes a full URL as it is", () => {
    for (const url of ["https://gitlab.example/a/b.git", "git@github.com:a/b.git", "file:///srv/git/a"]) {
      expect(repositoryUrl(url, "https://github.com/")).toBe(url);
    }
  });

  it("refuses anything else, so nothing reaches git as an option or climbs out of the base", () => {
    for (const repo of ["--upload-pack=x", "a", "a/b/c", "../b", "a/..", "a b/c"]) {
      expect(() => repositoryUrl(repo)).toThrow(/is neither owner\/name/);
    }
  });
});
