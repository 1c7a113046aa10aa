# Yatırımcı koruması (iş 26): doğrulanmış MKK bilgileri, kimlik kilidi, bekletilen talepler,
# bekleme listesi, emanet hesap ekstreleri ve elle girilen tahsilatlar.
investment-needs-mkk-verification = MKK bilgileriniz ekibimiz tarafından doğrulanıyor. Bilgileriniz doğrulandığında, genellikle bir iş günü içinde, yatırım talebi gönderebilirsiniz.
mkk-status-change-pending = Değişiklikleriniz inceleniyor; o zamana kadar yatırımlarınızda daha önce doğrulanan bilgileriniz geçerlidir
mkk-identity-locked = Yatırım talebi gönderdikten sonra yatırımcı türünüz ve kimlik numaranız değiştirilemez. Düzeltilmesi gerekiyorsa bizimle iletişime geçin.
mkk-identity-locked-hint = Yatırım talebi gönderdiğiniz için yatırımcı türünüz ve kimlik numaranız kilitlidir. Ekibimiz bir düzeltme için kilidi açabilir.
mail-mkk-rejected-subject = Ortak: MKK bilgilerinizin düzeltilmesi gerekiyor
mail-mkk-rejected-body = Ekibimiz MKK üyelik bilgilerinizi doğrulayamadı. Lütfen aşağıdaki bağlantıdan düzeltin; gönderdiğiniz anda yeniden inceliyoruz.
mail-mkk-rejected-button = Bilgilerimi düzelt
mail-mkk-rejected-held = { $count ->
    [one] Düzeltilen bilgileriniz doğrulanana kadar açık yatırım talebiniz bekletilir: bu talep için hizmet bedeli alınmaz ve pay tahsis edilmez.
   *[other] Düzeltilen bilgileriniz doğrulanana kadar { $count } açık yatırım talebiniz bekletilir: bu talepler için hizmet bedeli alınmaz ve pay tahsis edilmez.
}
pending-held-mkk = MKK bilgileriniz reddedildiği için bu talep bekletiliyor. Devam etmek için bilgilerinizi düzeltin.
request-held-mkk = Yatırımcının MKK bilgileri reddedildi: düzeltilen bilgiler doğrulanana kadar talep bekletiliyor.
request-investor-unverified = Yatırımcının MKK bilgileri henüz doğrulanmadı: onaylamadan önce doğrulayın.
request-over-limit = Onay, yatırımcının yıllık limitini (doğrulanmış kimliğine göre) aşar.
validation-over-capacity = Bu tur bu tutarı alamaz: hedefi ve fazla fonlama payı buna yer bırakmıyor. Daha küçük bir tutar girin.
dashboard-move-cancelled = İptal et
dashboard-request-made-as = Gönderildiği sıfat
dashboard-request-no-snapshot = Doğrulanmış kayıt tutulmadan önce gönderildi
dashboard-request-mkk = MKK bilgileri şu an
dashboard-request-no-mkk = Gönderilmedi
dashboard-request-held = Reddedildi: talep bekletiliyor
dashboard-request-class = Yatırımcı sınıfı şu an (doğrulanmış)
dashboard-request-unverified = Henüz doğrulanmadı
dashboard-request-limit = Yıllık limit şu an
dashboard-request-not-capped = Sınırsız
dashboard-request-limit-figures = { $limit } · kullanılan { $used } · kalan { $remaining }
investor-class-individual = Bireysel
investor-class-corporate = Tüzel
investor-class-qualified = Nitelikli yatırımcı
dashboard-mkk-verified-identity = Doğrulanmış kimlik
dashboard-identity-history = Kullanılan kimlikler
dashboard-identity-unlock = Bir kimlik düzeltmesine izin ver
validation-name-characters = Yalnızca harf kullanın; boşluk, kısa çizgi, kesme işareti ve nokta kullanılabilir.
bank-payer-verified = MKK bilgilerinizde doğrulandığı şekliyle. Emanet hesabı yalnızca kendi hesabınızdan gelen parayı kabul eder.
bank-iban-own = Bu IBAN kendi adıma (tüzel yatırımcıysam şirketimin adına) açılmış bir hesaba aittir. Başkasından gelen havaleler kabul edilmez; iadeler yalnızca bu IBAN'a yapılır.
validation-iban-own = IBAN'ın kendi adınıza olduğunu onaylayın.
statements-title = Banka ekstreleri
statements-text = Takas bankasının ekstresini yükleyin (ISO 20022 camt.053 XML veya SWIFT MT940). Bir satır yalnızca açıklamasında bir talebin referansı bulunduğunda, tutar tam olarak beklenen tutar olduğunda ve gönderen yatırımcının kendisi olduğunda (kendi IBAN'ı ve doğrulanmış adı) alındı olarak kaydedilir. Diğer her satır burada işaretli olarak tutulur ve bir kişi paranın ne olduğunu belirtene kadar hiçbir parayı hareket ettirmez. Aynı dosya iki kez yüklenemez.
statements-file = Ekstre dosyası
statements-import = Ekstreyi yükle
statements-file-required = Bir ekstre dosyası seçin.
statements-file-size = Dosya 5 MB'tan büyük.
statement-unreadable = Bu dosya okuyabildiğimiz bir camt.053 ya da MT940 ekstresi değil.
statement-not-lira = Ekstrede Türk lirası dışında bir para biriminde tutarlar var; hiçbir şey yüklenmedi.
statement-wrong-account = Bu ekstre emanet hesabına değil başka bir hesaba ait; hiçbir şey yüklenmedi.
statement-already-imported = Bu dosya daha önce yüklendi; yeniden yüklenmedi.
statements-imported = Ekstre yüklendi; her satır talebiyle eşleşti.
statements-imported-flagged = Ekstre yüklendi. Bazı satırların bir kişi tarafından incelenmesi gerekiyor: en üstte listelenirler.
statements-flagged = { $count ->
    [one] Bir satırın incelenmesi gerekiyor.
   *[other] { $count } satırın incelenmesi gerekiyor.
}
statements-lines-title = Ekstre satırları
statements-payer = Gönderen
statements-remittance = Açıklama
statements-resolve = İşlendi olarak işaretle
statements-not-open = Bu satır inceleme beklemiyor.
statements-outcome-matched = Alındı: talep fonlandı
statements-outcome-returned = Alındı ve iade edildi
statements-outcome-unknown_reference = Bilinen bir referans yok
statements-outcome-amount_mismatch = Beklenen tutar değil
statements-outcome-payer_mismatch = Yatırımcıdan gelmemiş
statements-outcome-debit = Çıkan para
statements-outcome-duplicate = Daha önce yüklendi
statements-typed-title = İkinci bir süper yöneticinin onayını bekleyen elle girilen tahsilatlar
statements-typed-text = Bir süper yöneticinin elle girdiği tahsilat, ancak başka bir süper yönetici onayladığında kaydedilir.
statements-proposed-by = Giren
statements-confirm = Onayla ve kaydet
statements-proposed = Tahsilat girildi. Bir şey kaydedilmeden önce ikinci bir süper yöneticinin onaylaması gerekir.
statements-second-superadmin = Elle girilen bir tahsilatı, onu girenden başka bir süper yönetici bir kez onaylar.
statements-type-receipt = Tahsilatı elle gir
statements-typed-source = Tutarın kaynağı
disk-full-try-again = Ortak şu anda yeni kayıt alamıyor. Hiçbir şey kaydedilmedi; lütfen birkaç dakika sonra yeniden deneyin.
busy-try-again = Ortak şu anda çok yoğun. Lütfen birkaç saniye sonra yeniden deneyin.
storage-full = Şu anda dosya alınamıyor. Lütfen daha sonra yeniden deneyin.
statements-payer-iban = Gönderenin IBAN'ı
statements-resolution = Çözüm notu
