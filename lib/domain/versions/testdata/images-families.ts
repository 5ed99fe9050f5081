// Tag lists of families that need more than like-with-like on the version:
// runtime lines inside the flavour, respins, date serials with respins,
// Jenkins build numbers with commits, Java update numbering and publisher
// build counters. As the registries listed them (lexical order), trimmed to
// the releases around the cases in newest-cases.ts.
import type { ImageTags } from "./image-tags";

/** wordpress, December 2024: every release is built for PHP 8.1, 8.2 and 8.3 side by side. */
export const wordpress: ImageTags = {
  image: "wordpress",
  tags: [
    "6", "6-apache", "6-fpm", "6-fpm-alpine", "6-php8.1", "6-php8.1-apache", "6-php8.2", "6-php8.2-apache", "6-php8.3",
    "6-php8.3-apache", "6.6.2", "6.6.2-apache", "6.6.2-php8.1-apache", "6.6.2-php8.1-fpm", "6.6.2-php8.2-apache",
    "6.6.2-php8.2-fpm", "6.6.2-php8.2-fpm-alpine", "6.6.2-php8.3-apache", "6.6.2-php8.3-fpm", "6.6.2-php8.3-fpm-alpine",
    "6.7", "6.7-apache", "6.7-php8.2", "6.7-php8.2-apache", "6.7-php8.3", "6.7-php8.3-apache", "6.7.0", "6.7.0-apache",
    "6.7.0-php8.1-apache", "6.7.0-php8.2-apache", "6.7.0-php8.2-fpm-alpine", "6.7.0-php8.3-apache", "6.7.0-php8.3-fpm-alpine",
    "6.7.1", "6.7.1-apache", "6.7.1-fpm", "6.7.1-fpm-alpine", "6.7.1-php8.1", "6.7.1-php8.1-apache", "6.7.1-php8.1-fpm",
    "6.7.1-php8.1-fpm-alpine", "6.7.1-php8.2", "6.7.1-php8.2-apache", "6.7.1-php8.2-fpm", "6.7.1-php8.2-fpm-alpine",
    "6.7.1-php8.3", "6.7.1-php8.3-apache", "6.7.1-php8.3-fpm", "6.7.1-php8.3-fpm-alpine", "apache", "cli", "cli-2.11.0",
    "cli-2.11.0-php8.2", "cli-php8.2", "fpm", "fpm-alpine", "latest", "php8.1", "php8.1-apache", "php8.1-fpm", "php8.2",
    "php8.2-apache", "php8.2-fpm", "php8.2-fpm-alpine", "php8.3", "php8.3-apache", "php8.3-fpm", "php8.3-fpm-alpine",
  ],
};

/** drupal, December 2024: PHP lines pinned, Alpine 3.20 and 3.21 bases published side by side (the base floats). */
export const drupal: ImageTags = {
  image: "drupal",
  tags: [
    "10.3.10-php8.2-apache-bookworm", "10.3.10-php8.2-fpm-alpine3.20", "10.3.10-php8.2-fpm-alpine3.21",
    "10.3.10-php8.3-apache-bookworm", "10.3.10-php8.3-fpm-alpine3.20", "10.3.10-php8.3-fpm-alpine3.21",
    "10.3.9-php8.2-apache-bookworm", "10.3.9-php8.2-fpm-alpine3.20", "10.3.9-php8.3-apache-bookworm",
    "10.3.9-php8.3-fpm-alpine3.20", "11.0.9-php8.3-apache-bookworm", "11.0.9-php8.3-fpm-alpine3.20",
    "11.1.0-php8.3-apache-bookworm", "11.1.0-php8.3-fpm-alpine3.20", "11.1.0-php8.3-fpm-alpine3.21",
    "11.1.0-php8.4-apache-bookworm", "11.1.0-php8.4-fpm-alpine3.21", "latest", "php8.3", "php8.4",
  ],
};

/** jenkins/jenkins, December 2024: LTS and weekly lines, each for JDK 17 and 21. */
export const jenkins: ImageTags = {
  image: "jenkins/jenkins",
  tags: [
    "2.479.1", "2.479.1-jdk17", "2.479.1-jdk21", "2.479.1-lts", "2.479.1-lts-jdk17", "2.479.1-lts-jdk21",
    "2.479.2", "2.479.2-alpine-jdk21", "2.479.2-jdk17", "2.479.2-jdk21", "2.479.2-lts", "2.479.2-lts-alpine-jdk21",
    "2.479.2-lts-jdk17", "2.479.2-lts-jdk21", "2.486", "2.486-jdk17", "2.486-jdk21", "2.487", "2.487-jdk17",
    "2.487-jdk21", "alpine-jdk21", "jdk17", "jdk21", "latest", "latest-jdk17", "latest-jdk21", "lts", "lts-jdk17",
    "lts-jdk21",
  ],
};

/** jenkins/inbound-agent, late 2024: remoting build numbers with their commit, a packaging revision, JDK lines. */
export const jenkinsInboundAgent: ImageTags = {
  image: "jenkins/inbound-agent",
  tags: [
    "3261.v9c670a_4748a_9-1", "3261.v9c670a_4748a_9-1-jdk17", "3261.v9c670a_4748a_9-1-jdk21",
    "3273.v4cfe589b_fd83-1", "3273.v4cfe589b_fd83-1-alpine-jdk21", "3273.v4cfe589b_fd83-1-jdk17",
    "3273.v4cfe589b_fd83-1-jdk21", "3283.v92c105e0f819-1", "3283.v92c105e0f819-1-alpine-jdk21",
    "3283.v92c105e0f819-1-jdk17", "3283.v92c105e0f819-1-jdk21", "3283.v92c105e0f819-2", "3283.v92c105e0f819-2-jdk17",
    "alpine-jdk21", "jdk17", "jdk21", "latest", "latest-jdk17", "latest-jdk21",
  ],
};

/** eclipse-temurin, late 2024: Java 8 update numbering (`8u432-b06`) beside the later `x.y.z_build` scheme. */
export const temurin: ImageTags = {
  image: "eclipse-temurin",
  tags: [
    "11", "11-jdk", "11-jdk-jammy", "11.0.24_8-jdk-jammy", "11.0.25_9-jdk", "11.0.25_9-jdk-jammy", "17", "17-jdk",
    "17-jdk-jammy", "17.0.12_7-jdk-jammy", "17.0.13_11-jdk", "17.0.13_11-jdk-jammy", "21", "21-jdk", "21-jdk-noble",
    "21.0.5_11-jdk", "21.0.5_11-jdk-noble", "8", "8-jdk", "8-jdk-jammy", "8-jre", "8-jre-jammy", "8u412-b08-jdk-jammy",
    "8u422-b05-jdk", "8u422-b05-jdk-jammy", "8u422-b05-jre", "8u422-b05-jre-jammy", "8u432-b06-jdk",
    "8u432-b06-jdk-alpine", "8u432-b06-jdk-jammy", "8u432-b06-jdk-noble", "8u432-b06-jre", "8u432-b06-jre-jammy",
    "latest",
  ],
};

/** eclipse-temurin, autumn 2023: 17.0.8.1_1 fixed 17.0.8_7 (a four-part respin), then 17.0.9_9 followed. */
export const temurin2023: ImageTags = {
  image: "eclipse-temurin (2023)",
  tags: [
    "17", "17-jdk-jammy", "17-jre-jammy", "17.0.7_7-jdk-jammy", "17.0.7_7-jre-jammy", "17.0.8.1_1-jdk-jammy",
    "17.0.8.1_1-jre-jammy", "17.0.8_7-jdk-jammy", "17.0.8_7-jre-jammy", "17.0.9_9-jdk-jammy", "17.0.9_9-jre-jammy",
  ],
};

/** ubuntu, autumn 2024: dated serials per codename, some respun the same day or later (`.1`). */
export const ubuntuSerials: ImageTags = {
  image: "ubuntu (serials)",
  tags: [
    "22.04", "24.04", "jammy", "jammy-20240808", "jammy-20240911.1", "jammy-20241017", "jammy-20241119", "latest",
    "noble", "noble-20240904.1", "noble-20241011", "noble-20241015", "noble-20241118", "noble-20241118.1",
  ],
};

/** lscr.io/linuxserver/transmission: Alpine-package revision and build counter, beside old plain tags of another scheme. */
export const linuxserverTransmission: ImageTags = {
  image: "lscr.io/linuxserver/transmission",
  tags: [
    "2021.11.18", "2.94", "3.00-r8-ls143", "4.0.5-r0-ls230", "4.0.5-r1-ls231", "4.0.6-r0-ls263", "4.0.6-r0-ls264",
    "4.0.6-r1-ls265", "12.0.0", "amd64-4.0.6-r1-ls265", "arm64v8-4.0.6-r1-ls265", "latest", "version-4.0.6-r0",
    "version-4.0.6-r1",
  ],
};
