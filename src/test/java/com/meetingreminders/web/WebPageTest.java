package com.meetingreminders.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web page in a real browser: Debian's Chromium, headless, driven through its chromedriver (one browser for the
 * class). Screenshots go to target/screenshots.
 */
@QuarkusTest
class WebPageTest {

    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private static ChromeDriver browser;
    private static Path profile;

    @TestHTTPResource("/")
    URL page;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @BeforeAll
    static void startBrowser() throws IOException {
        profile = Files.createTempDirectory("chromium-profile");
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,1400",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    @BeforeEach
    void freshSession() {
        browser.get(page.toString());
        browser.executeScript("sessionStorage.clear()");
        browser.navigate().refresh();
    }

    @AfterEach
    void deliveryRuns() {
        given().header("Authorization", "Bearer " + Tokens.operator("web-operator"))
                .post("/admin/delivery/resume")
                .then()
                .statusCode(200);
    }

    @Test
    void aCallerCreatesAMeetingAndWatchesItsReminderArrive() throws IOException {
        signIn(Tokens.of("web-caller-" + UUID.randomUUID()));
        new WebDriverWait(browser, Duration.ofSeconds(10))
                .until(ExpectedConditions.textToBe(By.id("who"), "Signed in."));
        assertThat(browser.findElement(By.id("operator")).isDisplayed()).isFalse();

        String title = "Design review " + UUID.randomUUID().toString().substring(0, 8);
        createMeeting(title, receiver.url("/ok"));

        waitFor(By.cssSelector("#my-reminders tr[data-status='DELIVERED']"), Duration.ofSeconds(30));
        waitFor(By.xpath("//ol[@id='live']/li[contains(., '" + title + "')]"), Duration.ofSeconds(5));
        assertThat(text("#my-reminders")).contains(title).contains("Etc/GMT-14");
        assertThat(receiver.on("/ok")).hasSize(1);
        screenshot("caller-view");
    }

    @Test
    void problemsAreShownAsMessages() throws IOException {
        signIn("not-a-token");
        assertThat(waitFor(By.cssSelector("#messages .error"), Duration.ofSeconds(5))
                        .getText())
                .contains("Unauthorized");
        signIn(Tokens.of("web-caller-" + UUID.randomUUID()));
        createMeeting("", null);
        assertThat(waitFor(By.cssSelector("#messages .error"), Duration.ofSeconds(5))
                        .getText())
                .contains("Unauthorized")
                .doesNotContain("title");
        ((JavascriptExecutor) browser).executeScript("document.getElementById('title').removeAttribute('required')");
        createMeeting("", null);
        new WebDriverWait(browser, Duration.ofSeconds(5))
                .until(ExpectedConditions.textToBePresentInElementLocated(By.id("messages"), "title"));
    }

    @Test
    void anOperatorRetriesAFailedReminderAndPausesAndResumesDelivery() throws IOException {
        signIn(Tokens.operator("web-operator"));
        waitFor(By.cssSelector("#operator #delivery-state"), Duration.ofSeconds(10));
        assertThat(text("#who")).isEqualTo("Signed in as an operator.");

        receiver.alwaysAnswer("/broken", 500);
        String title = "Release sync " + UUID.randomUUID().toString().substring(0, 8);
        createMeeting(title, receiver.url("/broken"));
        By failed = By.xpath("//div[@id='failed']//tr[contains(., '" + title + "')]//button[@class='retry']");
        waitFor(failed, Duration.ofSeconds(30));
        waitFor(
                By.xpath("//ol[@id='live']/li[@class='failed' and contains(., '" + title + "')]"),
                Duration.ofSeconds(5));
        assertThat(text("#failed")).contains("receiver answered 500");
        screenshot("operator-view-failed");

        receiver.alwaysAnswer("/broken", 204);
        // By keyboard: Enter on the focused button presses it. The table is redrawn every few seconds, so the button is
        // found afresh if it was replaced meanwhile, or tried again if it was caught mid-swap, not yet interactable.
        new WebDriverWait(browser, Duration.ofSeconds(10))
                .ignoring(StaleElementReferenceException.class)
                .ignoring(ElementNotInteractableException.class)
                .until(driver -> {
                    driver.findElement(failed).sendKeys(Keys.ENTER);
                    return true;
                });
        waitFor(
                By.xpath("//div[@id='my-reminders']//tr[@data-status='DELIVERED' and contains(., '" + title + "')]"),
                Duration.ofSeconds(30));
        assertThat(receiver.on("/broken")).hasSize(4);

        click("#pause");
        waitFor(By.cssSelector("#delivery-state[data-paused='true']"), Duration.ofSeconds(10));
        given().get("/q/health/ready").then().statusCode(200);
        screenshot("operator-view");
        click("#resume");
        waitFor(By.cssSelector("#delivery-state[data-paused='false']"), Duration.ofSeconds(10));
    }

    private void signIn(String token) {
        WebElement field = browser.findElement(By.id("token"));
        field.clear();
        field.sendKeys(token);
        field.submit();
    }

    private void createMeeting(String title, String webhookUrl) {
        browser.findElement(By.id("title")).clear();
        browser.findElement(By.id("title")).sendKeys(title);
        // The browser's own local time, 40 s from now: datetime-local takes it as the browser's zone.
        browser.executeScript("const d = new Date(Date.now() + 40000 - new Date().getTimezoneOffset() * 60000);"
                + "document.getElementById('startsAt').value = d.toISOString().slice(0, 19);");
        browser.findElement(By.id("timeZone")).clear();
        browser.findElement(By.id("timeZone")).sendKeys("Etc/GMT-14");
        browser.findElement(By.id("remindBefore")).clear();
        browser.findElement(By.id("remindBefore")).sendKeys("PT36S");
        browser.findElement(By.id("webhookUrl")).clear();
        if (webhookUrl != null) {
            browser.findElement(By.id("webhookUrl")).sendKeys(webhookUrl);
        }
        browser.findElement(By.cssSelector("#create-form button[type=submit]")).click();
    }

    private WebElement waitFor(By what, Duration atMost) {
        return new WebDriverWait(browser, atMost).until(ExpectedConditions.presenceOfElementLocated(what));
    }

    private void click(String css) {
        new WebDriverWait(browser, Duration.ofSeconds(10))
                .ignoring(StaleElementReferenceException.class)
                .until(driver -> {
                    driver.findElement(By.cssSelector(css)).click();
                    return true;
                });
    }

    private String text(String css) {
        return browser.findElement(By.cssSelector(css)).getText();
    }

    private void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }
}
