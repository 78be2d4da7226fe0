<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>berth::AccountsDialog</name>
    <message>
        <source>Accounts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Users, sign-in or mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Users</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;ign-in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::AcmeSettingsPage</name>
    <message>
        <source>Also the API&apos;s &amp;host and every site&apos;s own name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth can obtain and renew the certificate of every custom domain itself, from an ACME certificate authority such as Let&apos;s Encrypt. Each name&apos;s DNS must point at this computer and the authority must reach Berth&apos;s plain-HTTP port as port 80; the certificates are served on the HTTPS port. Applies the next time Berth starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Certificate authority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None: no certificates by ACME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let&apos;s Encrypt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let&apos;s Encrypt staging, for trying out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another ACME server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ACME directory URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact e-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The authority writes here about certificates about to expire</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Private CA file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None: the system&apos;s CAs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A PEM CA to trust for the ACME server&apos;s own HTTPS, for a private ACME server on the LAN such as step-ca</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom domains always get certificates; this adds the API&apos;s address and &lt;slug&gt;.&lt;site domain&gt; of every site, when the site domain is a name without a port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Certificate a&amp;uthority:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Director&amp;y URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact e-&amp;mail:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Private CA file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Private CA (PEM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Names and their certificates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth obtains no certificates in this run. Once it starts with an authority chosen above, each name it handles is listed here with its certificate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not an ACME directory URL such as %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Certificates by ACME need a contact e-mail address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not a file Berth can read.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::Appearance</name>
    <message>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::CertificateColumns</name>
    <message>
        <source>Certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Being obtained</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
Next attempt: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::CountersModel</name>
    <message>
        <source>Counting since %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last update</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::CountersPanel</name>
    <message>
        <source>&amp;Reset to 0…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the counter: it reads 0 and counts again from its next increment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No counters yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;A page of this site creates one when it posts to &lt;code&gt;/_counter/&amp;lt;name&amp;gt;/increment&lt;/code&gt;, and reads it with &lt;code&gt;GET /_counter/&amp;lt;name&amp;gt;&lt;/code&gt;.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No counters yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resetting deletes a counter: it reads 0 until a visitor counts it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset Counter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset “%1” to 0? Berth deletes the counter: it reads 0 until a visitor counts it again. This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is reset: it reads 0.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reset</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::DeploymentActions</name>
    <message>
        <source>&amp;Open in Browser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy &amp;Share Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Private</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Access and Password…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit Details…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;deploy from Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>De&amp;lete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Private sites answer only visitors who have the share link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish %1 again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth does not know a folder this site came from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish HTML File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML pages (*.html *.htm)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied the share link of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make Public</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Access</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is private: copy its share link to let people in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is public.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete Site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete “%1”? The site goes offline at once and its address is free for anyone. This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Form S&amp;ubmissions…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Coun&amp;ters…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What visitors sent through this site&apos;s forms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This site&apos;s counters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is where %2 was published from. Update that site with these files, or publish them as a new site?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Update %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish as a &amp;New Site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make “%1” public? Anyone with its address can visit it. Its share link and password are removed: making it private again later makes a new link, and the one given out now stops working.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make &amp;Public</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;History…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 serves version %2 again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Live Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 follows its folder: changes are published as they are saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 no longer follows its folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New Share Link…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give this private site a new share link; the current one stops working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New Share Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give “%1” a new share link? The current link stops working at once, also for people who already opened the site with it; they need the new one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has a new share link (copied); the old one no longer works.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tra&amp;ffic…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not&amp;ifications…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;xpiry…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Views, visitors, top pages, referrers and missing pages of this site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where this site&apos;s events go: webhooks, and mail for new submissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When this site goes offline by itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Named Share Lin&amp;ks…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Links of their own for each person: each can expire, be used up or be revoked</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::DeploymentTableModel</name>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
    <message>
        <source>Double-click to open in the browser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Public</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Private</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Private, password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slug</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Access</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click to open in the browser
On the local network: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Goes offline on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stays online until you delete it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expires</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::DomainsEditor</name>
    <message>
        <source>Custom domains</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Domain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New domain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A name whose DNS points here, e.g. docs.example.org</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the instance&apos;s owner gives sites custom domains here. The owner can let everyone add them with “berthd domains policy everyone”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A domain is already in use by another site.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1”: domain already in use by another site.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the instance&apos;s owner may give sites custom domains.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is already one of this site&apos;s domains.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is added when you save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is removed when you save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A site can have at most %1 domains: remove one to add another.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::EditDetailsDialog</name>
    <message>
        <source>&amp;Single-page app (unknown paths serve index.html)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit Details of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Favicon emoji</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An emoji, e.g. ⚓</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Favicon:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The description can be at most %1 characters; it has %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only for a site published from a folder: this site is a single HTML page.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::EmptyStatePage</name>
    <message>
        <source>Drop a folder or an .html file here to publish it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It goes live at once at its own address. Hidden files and .git are left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose &amp;Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose HTML &amp;File…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::ErrorText</name>
    <message>
        <source>Your plan&apos;s deployment limit is reached. Delete a deployment first, or raise the limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This deployment no longer exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth could not finish this: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This site has as many counters as its plan allows. Reset one first, or raise the limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This site has received as many form submissions today as its plan allows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The address “%1” is already taken by another site. Choose another slug.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A slug is 3 to 63 characters: lowercase letters and digits in groups joined by single hyphens, with at least one hyphen (e.g. “my-site”).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This counter no longer exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This submission no longer exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This key no longer exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This user no longer exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too many requests at once. Try again in a minute.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publishing was cancelled; nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::ExpiryDialog</name>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n hour</numerusform>
            <numerusform>%n hours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n day</numerusform>
            <numerusform>%n days</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Never Expire</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expiry of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The site stays online until you delete it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 never expires: it stays online until you delete it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 goes offline %2, on %3. Its address is then free for anyone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Extend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved: %1 now goes offline on %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved: %1 no longer expires.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go offline &amp;in:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Set Expiry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extend &amp;by:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::FileRow</name>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PEM files (*.pem *.crt *.cer *.key);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::FirstKeyDialog</name>
    <message>
        <source>Welcome to Berth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scripts and agents publish through Berth&apos;s API with this key. &lt;b&gt;Copy it now:&lt;/b&gt; it is shown only this once. More keys, and revoking this one, are under File ▸ API Keys.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Owner API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try it: this publishes a page at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Example command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy &amp;Example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Done</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::FolderPackager</name>
    <message>
        <source>“%1” is %2; a single HTML page can be at most %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” could not be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is over %2; a single HTML page can be at most %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” holds %L2 files; a site can have at most %L3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” cannot be published: its name cannot be part of a web address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is %2; each file can be at most %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” holds %2 of files; a site can be at most %3 in total.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” no longer exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only a folder or an .html file can be published; “%1” is neither.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is neither a folder nor a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is over %2; each file can be at most %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” has no files to publish (hidden files, .git and links out of the folder are left out).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::HistoryDialog</name>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Roll Back to This Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Published</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (live)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This version is live.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Rolling back: %n file(s) added</source>
        <translation>
            <numerusform>Rolling back: %n file added</numerusform>
            <numerusform>Rolling back: %n files added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) removed</source>
        <translation>
            <numerusform>%n file removed</numerusform>
            <numerusform>%n files removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) changed</source>
        <translation>
            <numerusform>%n file changed</numerusform>
            <numerusform>%n files changed</numerusform>
        </translation>
    </message>
    <message>
        <source>Roll Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (prepared)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Make This Version Live</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Making it live: %n file(s) added</source>
        <translation>
            <numerusform>Making it live: %n file added</numerusform>
            <numerusform>Making it live: %n files added</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>berth::KeysDialog</name>
    <message>
        <source>&amp;Create Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Revoke…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scripts and agents publish through the API with a key: &lt;code&gt;Authorization: Bearer bk_…&lt;/code&gt;. Berth keeps only a hash of each key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label of the new key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label, e.g. deploy script</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;opy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dashboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke the key “%1”? Scripts using it are refused from now on. This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key could not be revoked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Copy the new key “%1” now:&lt;/b&gt; it is shown only this once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Revoke</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::LiveFolders</name>
    <message>
        <source>Live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live · not synced: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live · synced %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::MailPanel</name>
    <message>
        <source>Send &amp;Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SMTP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>smtp.example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Security</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STARTTLS (port 587)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS (port 465)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None: a relay you trust (port 25)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SMTP user name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty: no sign-in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SMTP password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sender address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>berth@example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test message recipient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>you@example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail for sign-in codes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;ecurity:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SMTP &amp;server:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sen&amp;der:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth keeps the password in its database, as it needs it to send: keep the data folder private.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign-in codes are mailed through &lt;b&gt;%1:%2&lt;/b&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Mail is not set up.&lt;/b&gt; Berth sends no codes: you pass them on from the Sign-in tab.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last delivery failed %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the SMTP server&apos;s host name, such as smtp.example.com.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the sender&apos;s email address, such as berth@example.com.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved. The next sign-in code goes out by mail.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop Mailing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget the mail settings? Berth then sends no sign-in codes: you pass them on yourself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The mail settings could not be removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail settings removed: you pass sign-in codes on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the address to send the test message to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending a test message to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The test message to %1 is sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The test message failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sa&amp;ve Mail Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop Mai&amp;ling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User &amp;name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send a test message t&amp;o:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop Mailing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::MailSubmissionsRow</name>
    <message>
        <source>Address for new submissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>you@example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Mail to:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New submissions are mailed to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submissions are not mailed; they wait in the site&apos;s Submissions window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop Mailing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail Me &amp;New Submissions</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::MainWindow</name>
    <message>
        <source>Berth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deployments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Publish Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish &amp;HTML File…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close Window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Filter Sites</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n site(s)</source>
        <translation>
            <numerusform>%n site</numerusform>
            <numerusform>%n sites</numerusform>
        </translation>
    </message>
    <message>
        <source>Publish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop one folder or .html file at a time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop to replace the content of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop to publish a new site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth is still serving</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New plan limits saved: they apply now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finishing publish…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your sites stay online. Quit from the tray icon&apos;s menu or with File ▸ Quit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No site matches “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Published %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::NotificationsDialog</name>
    <message>
        <source>Delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>next try %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sites</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send &amp;Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 – Notifications</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send a ping event to the selected webhook now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Webhooks of this site:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Last deliveries of the selected webhook:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All sites</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A test event is on its way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn &amp;On Again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliver the selected webhook&apos;s new events again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off since %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The webhook is on again: new events go out to it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::OwnerWindows</name>
    <message>
        <source>API &amp;Keys…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Accounts…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Users and their plans, who may sign in, sign-in codes to pass on, mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Berth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Berth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Berth %1&lt;/h3&gt;&lt;p&gt;Puts a folder on a live address from your own machine.&lt;/p&gt;&lt;p&gt;Sites stay online while Berth runs, in this window or in the tray.&lt;/p&gt;&lt;p&gt;GPL-3.0-or-later&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::PlanText</name>
    <message>
        <source>Agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pro</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::ProtectionDialog</name>
    <message>
        <source>P&amp;ublic: anyone with the address can visit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;rivate: only people with the share link can visit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also require a &amp;password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Access to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set; type here to change it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy share link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share link:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A share link is made when you save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the password visitors will need, or untick “Also require a password”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Making the site public removes its share link and password. Making it private again later makes a new link; the one given out now stops working.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QR code of the share link</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::PublishDialog</name>
    <message>
        <source>Replace Site Content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish Site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Publish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading files… %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace “%1” with “%2”?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everything now in %1 is replaced by these files. The address stays the same; visitors see the new version at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Taken from the page&apos;s &lt;title&gt; when empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Single-page app (unknown paths serve index.html)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;rivate: only people with the share link can visit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Slug:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open in Browser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy &amp;Share Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The site is private. Visitors need this share link:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cannot be published as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A single HTML page, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), %1</source>
        <translation>
            <numerusform>%n file, %1</numerusform>
            <numerusform>%n files, %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hidden item(s) skipped</source>
        <translation>
            <numerusform>%n hidden item skipped</numerusform>
            <numerusform>%n hidden items skipped</numerusform>
        </translation>
    </message>
    <message>
        <source>“%1” was just taken by another site. Choose another slug.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is updated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your site is live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replacing the content…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publishing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finishing publish…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Storing %1 of %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Putting the new version online…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before you publish, have a look at these:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pre-publish checks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Published, with something worth fixing:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace &amp;Anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish &amp;Anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n link(s) out of the folder left out</source>
        <translation>
            <numerusform>%n link out of the folder left out</numerusform>
            <numerusform>%n links out of the folder left out</numerusform>
        </translation>
    </message>
    <message>
        <source>Optional: visitors may type it instead of using the share link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A password makes the site private: visitors come in with its share link or with the password.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version %1 of “%2” is prepared</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visitors still see the live version. To make this one live, select it in the site&apos;s History and choose Make This Version Live.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prepare &amp;Anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Prepare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prepare &amp;without publishing: keep the live site as it is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The files become a new version in the site&apos;s History, where you make it live</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::PublishIssueText</name>
    <message>
        <source>No index.html</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Broken link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over a limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Possible secret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Large image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no index.html at the top of the folder: the site&apos;s address will show Not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder has %L1 files: a site can have at most %L2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder holds %1: over the %2 limit for a site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is %2: over the %3 per-file limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a %2 image: pages that show it load slowly; a smaller or compressed copy helps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 looks like an environment file (.env), which usually holds passwords and keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 looks like an SSH private key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 contains a private key block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 contains what looks like an AWS access key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 contains what looks like a GitHub token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 contains what looks like a Slack token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 contains what looks like a Stripe secret key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 contains what looks like a Google API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 links to “%2”, which is not in the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 links to “%2”, which is outside the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 loads “%2”, which is not in the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 loads “%2”, which is outside the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>… and %n more of this kind (%1)</source>
        <translation>
            <numerusform>… and %n more of this kind (%1)</numerusform>
            <numerusform>… and %n more of this kind (%1)</numerusform>
        </translation>
    </message>
    <message>
        <source>Left out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a link to outside the folder (or to nothing): it is left out</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::QrPanel</name>
    <message>
        <source>QR code of the site&apos;s address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scan to open the share link on a phone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scan to open on a phone</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::RenameDialog</name>
    <message>
        <source>Rename Site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The site moves to its new address at once; %1 stops working.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New &amp;slug:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is already taken by another site. Choose another slug.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::ServingHeader</name>
    <message>
        <source>Where Berth is serving</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter sites</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share on &amp;local network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other devices on this network (phones, other computers) can open the sites: as &lt;slug&gt;.local and on a port of each site&apos;s own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local network addresses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only this computer can open the sites.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No address on a local network right now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API %1 · Sites at &amp;lt;slug&amp;gt;.local:%2 and on ports of their own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Serving&lt;/b&gt; · API %1 · Sites %2 · Data %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::SettingsDialog</name>
    <message>
        <source>&amp;Keep serving from the system tray when the window is closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listen address and port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Site domain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>localhost:PORT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server settings apply the next time Berth starts. The command-line options --listen, --site-domain and --data-dir override them for one run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Listen on:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Site &amp;domain:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data &amp;folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan limits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deployments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submissions a day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submissions kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counters a site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not an address and port such as 127.0.0.1:8080.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore &amp;Defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Puts back the limits Berth ships with; they apply when you save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The limits of %1 could not be saved: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type over a number to change it. New limits apply as soon as you save, to everyone on the plan; sites and submissions already above a lowered limit stay. The instance owner is on Pro. Sizes: a single HTML page up to %1, each file up to %2, a whole site up to %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Appearance:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In effect for this run, from the command line: %1. The values here apply when Berth starts without these options.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share on the local &amp;network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also listen on this computer&apos;s LAN addresses, announce every site as &lt;slug&gt;.local and give each site a port of its own. Applies at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Older versions go, with the files only they used, at a site&apos;s next publish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Versions kept per site:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The number of versions kept could not be saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Serving threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One per core (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads that answer visitors and the API; more serve more visitors at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Serving &amp;threads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTPS certificate file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None: plain HTTP only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PEM file with the server certificate first, then any intermediate certificates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTPS private key file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PEM file with the certificate&apos;s private key, not protected by a passphrase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTPS port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any free port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTPS ce&amp;rtificate:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTPS Certificate (PEM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTPS private &amp;key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTPS Private Key (PEM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTPS p&amp;ort:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTPS needs both a certificate file and a private key file; leave both empty for plain HTTP.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not a file Berth can read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Write an access log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One line per request in Apache&apos;s vhost_combined format, which log analysers such as GoAccess read; a new file each day, 14 days kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Access log file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>logs/access.log in the data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Access log fil&amp;e:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Certificates</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::ShareLinksDialog</name>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create &amp;Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Revoke</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share links of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each link opens this private site for whoever has it. Revoking one shuts out only the visitors who came in through it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This site is public: anyone with its address can visit. Links matter once it is private (Access…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share links</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. Client review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In 1 day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Label:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Expires:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Max opens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New share link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy new share link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QR code of the new share link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no label)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the new link now: it is shown only once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke share link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke “%1”? Whoever opened the site through it can no longer visit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is revoked.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::SignInPanel</name>
    <message>
        <source>&amp;Copy Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anyone may &amp;sign up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow &amp;agent sessions from the local network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;dd</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who may sign in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Otherwise only the emails below. Whoever signs up while this is on joins the list, and stays on it when you turn it off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Emails that may sign in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Email</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Takes the email off the list; keys its owner already has keep working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Email to allow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name@example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign-in requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copies the selected request&apos;s code, to pass on to its person</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scripts and agents on this computer get a key with POST /auth/session; from elsewhere they are refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scripts and agents on this computer and on private networks (10/8, 172.16/12, 192.168/16, link-local) get a key with POST /auth/session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent sessions are open to any address (berthd agents anywhere). Turn this off to allow this computer only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Codes are mailed through %1. A code shows here when its mail could not be delivered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Mail is not set up:&lt;/b&gt; Berth does not send codes. Give each person the code of their request, e.g. by phone or chat; it works for ten minutes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass it on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mailing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mailed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not delivered: pass it on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not allowed to sign in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requested %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not an email address such as name@example.com.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 may sign in now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 may no longer sign in. Keys they already have keep working until you revoke them (Users).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied the code for %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::SlugEdit</name>
    <message>
        <source>Slug</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>my-site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slug check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use 3 to 63 characters: a–z and 0–9 in groups joined by single hyphens, with at least one hyphen (e.g. my-site).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is already taken by another site. Choose another slug.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The address will be %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::Startup</name>
    <message>
        <source>The data folder %1 is in use by %2 (process %3). One data folder serves from one program at a time: stop the other one, or choose another data folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth cannot use the data folder %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth cannot listen on %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth Cannot Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use Another &amp;Port…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose &amp;Data Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Try Again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use Another Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port for Berth to listen on (0 picks a free one):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose Data Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth cannot use the database given by --database or BERTH_DATABASE: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth cannot use the database %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::SubmissionAlerts</name>
    <message>
        <source>New form submission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Someone sent a form on %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New form submissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n more form submission(s) on %1.</source>
        <translation>
            <numerusform>%n more form submission on %1.</numerusform>
            <numerusform>%n more form submissions on %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>berth::SubmissionsDialog</name>
    <message>
        <source>Submissions and counters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submissions or counters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 – Submissions and Counters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Submissions (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Counters (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::SubmissionsModel</name>
    <message>
        <source>Received</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::SubmissionsPanel</name>
    <message>
        <source>&amp;Newer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Older</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Newer submissions (previous page)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Older submissions (next page)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save every submission of this site as a CSV file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selected submission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a submission to read it in full.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No submissions yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;A form on this site sends here when it posts to &lt;code&gt;/_submit&lt;/code&gt;:&lt;br&gt;&lt;code&gt;&amp;lt;form method=&quot;post&quot; action=&quot;/_submit&quot;&amp;gt;&lt;/code&gt;&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No submissions yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No submissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1–%2 of %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete Submissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Delete %n submission(s) of %1? This cannot be undone.</source>
        <translation>
            <numerusform>Delete %n submission of %1? This cannot be undone.</numerusform>
            <numerusform>Delete %n submissions of %1? This cannot be undone.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n submission(s).</source>
        <translation>
            <numerusform>Deleted %n submission.</numerusform>
            <numerusform>Deleted %n submissions.</numerusform>
        </translation>
    </message>
    <message>
        <source>Export Submissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Exported %n submission(s) to %1.</source>
        <translation>
            <numerusform>Exported %n submission to %1.</numerusform>
            <numerusform>Exported %n submissions to %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>berth::TimeText</name>
    <message>
        <source>in a few seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>just now</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>in %n minute(s)</source>
        <translation>
            <numerusform>in %n minute</numerusform>
            <numerusform>in %n minutes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s) ago</source>
        <translation>
            <numerusform>%n minute ago</numerusform>
            <numerusform>%n minutes ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>in %n hour(s)</source>
        <translation>
            <numerusform>in %n hour</numerusform>
            <numerusform>in %n hours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s) ago</source>
        <translation>
            <numerusform>%n hour ago</numerusform>
            <numerusform>%n hours ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>in %n day(s)</source>
        <translation>
            <numerusform>in %n day</numerusform>
            <numerusform>in %n days</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s) ago</source>
        <translation>
            <numerusform>%n day ago</numerusform>
            <numerusform>%n days ago</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>berth::TrafficChart</name>
    <message>
        <source>Views and visitors per day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visitors</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::TrafficDialog</name>
    <message>
        <source>Top pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Referrers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 – Traffic</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Last %n day(s)</source>
        <translation>
            <numerusform>Last day</numerusform>
            <numerusform>Last %n days</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visitors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found (404)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top pages, referrers and missing paths</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;ages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Referrers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Not Found</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::TrayController</name>
    <message>
        <source>&amp;Show Berth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit Berth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Berth is serving your sites</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::UsersPanel</name>
    <message>
        <source>&amp;Revoke Key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Users</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deployments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys of the selected user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key stops working at once: requests with it are refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan of the selected user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Plan:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new plan applies at once; deployments a user already has above its limit stay.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You (owner)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (owner)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 deployments of the %2 the plan allows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is on %2 now: up to %3 deployments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke the key “%1” of %2? Requests with it are refused from now on. This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key “%1” is revoked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Revoke</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>berth::WebhookAlerts</name>
    <message>
        <source>A webhook was turned off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed every delivery for 3 days. Its site&apos;s Notifications… turns it back on.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>The Berth dashboard: publish folders as live sites. Options override the saved settings for this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address and port to listen on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the data lives.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Domain whose subdomains are the sites.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Public base URL of the API.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the records and the sites&apos; files in this PostgreSQL database, postgresql://USER:PASSWORD@HOST:PORT/DBNAME (default: $BERTH_DATABASE, else SQLite in the data folder).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
